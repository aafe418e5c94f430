-- write_acquire.lua: take or re-enter the write lock of a read/write lock for one owner, or wait in line; safe to
-- send twice. Runs after turns.lua: the processes waiting for the write lock take turns, as the reentrant lock's
-- do. Layout: see read_acquire.lua.
--
-- KEYS[1]  the lock's hash
-- KEYS[2]  this owner's read timeout key prefix, "{<name>}:<clientId>:<holderId>:rwlock_timeout"
-- KEYS[3]  the line of waiting processes, "hasp_rwlock_line:{<name>}"
-- KEYS[4]  what the keys of their places start with, "hasp_rwlock_line_place:{<name>}" (turns.lua)
-- KEYS[5]  the turn, "hasp_rwlock_turn:{<name>}"
-- ARGV[1]  lease in milliseconds
-- ARGV[2]  the owner's write field, "<clientId>:<holderId>:write"
-- ARGV[3]  the owner's read field, "<clientId>:<holderId>"
-- ARGV[4]  the write hold count this request brings the owner to (its count + 1); a re-sent
--          request that finds the count reached adds nothing
-- ARGV[5]  the calling process (its hasp client id), which may take the free lock on its turn
-- ARGV[6]  the place lease in milliseconds when the caller waits; '0' for a single try (no place in line)
--
-- Returns  nil when the owner holds the write lock after the call; the status LOST when a re-entry
--          (ARGV[4] above 1) finds no write hold of the owner (see read_acquire.lua); the status UPGRADE when the
--          lock is in read mode and the owner itself has a live read hold (an upgrade: it would wait for itself
--          forever, so it is refused); otherwise how long the caller may park before it looks again, in
--          milliseconds (turns.lua's wait_in_line: below -1 when its process waits in line for its turn, which
--          comes on its own channel; a single try is answered the lock's, or the turn's, PTTL).

-- Whether every holder of the lock takes turns, so that its last release gives the turn: a hasp client's write
-- holder, or hasp clients' readers only.
local function holders_take_turns(lock)
    for _, field in ipairs(redis.call('hkeys', lock)) do
        if field ~= 'mode' and not takes_turns(field) then
            return false
        end
    end
    return true
end

local lock, line, places, turn = KEYS[1], KEYS[3], KEYS[4], KEYS[5]
local process, place_millis = ARGV[5], tonumber(ARGV[6])

if tonumber(ARGV[4]) > 1 and redis.call('hexists', KEYS[1], ARGV[2]) == 0 then
    return redis.status_reply('LOST')
end
local lease = tonumber(ARGV[1])
local mode = redis.call('hget', KEYS[1], 'mode')
if not mode then
    if not may_take(turn, process) then
        return wait_in_line(lock, line, places, turn, process, place_millis, true)
    end
    redis.call('hset', KEYS[1], 'mode', 'write')
    redis.call('hset', KEYS[1], ARGV[2], 1)
    redis.call('pexpire', KEYS[1], lease)
    return nil
end

if mode == 'write' then
    local count = tonumber(redis.call('hget', KEYS[1], ARGV[2]) or '0')
    if count == 0 then
        return wait_in_line(lock, line, places, turn, process, place_millis, false, holders_take_turns)
    end
    if count < tonumber(ARGV[4]) then
        redis.call('hincrby', KEYS[1], ARGV[2], 1)
    end
    if redis.call('pttl', KEYS[1]) < lease then
        redis.call('pexpire', KEYS[1], lease)
    end
    return nil
end

-- Read mode: refuse an upgrade, i.e. a live read hold of this very owner.
local reads = tonumber(redis.call('hget', KEYS[1], ARGV[3]) or '0')
for n = 1, reads do
    if redis.call('exists', KEYS[2] .. ':' .. n) == 1 then
        return redis.status_reply('UPGRADE')
    end
end
return wait_in_line(lock, line, places, turn, process, place_millis, false, holders_take_turns)
