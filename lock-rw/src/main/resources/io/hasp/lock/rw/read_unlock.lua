-- read_unlock.lua: give back one read hold of a read/write lock; safe to send twice. Runs after turns.lua: a
-- release that frees the lock gives the turn to the first process in the writers' line. Layout: see
-- read_acquire.lua.
--
-- KEYS[1]  the lock's hash
-- KEYS[2]  the lock's channel, "redisson_rwlock:{<name>}"
-- KEYS[3]  this owner's timeout key prefix, "{<name>}:<clientId>:<holderId>:rwlock_timeout"
-- KEYS[4]  the lock's hash tag, "{<name>}": every holder's timeout keys are
--          "<KEYS[4]>:<field>:rwlock_timeout:<n>"
-- KEYS[5]  this request's unlock latch, "redisson_unlock_latch:{<name>}:<requestId>": it records
--          the outcome, so the same request sent again answers what the first send did
-- KEYS[6]  the line of processes waiting for the write lock, "hasp_rwlock_line:{<name>}"
-- KEYS[7]  what the keys of their places start with, "hasp_rwlock_line_place:{<name>}" (turns.lua)
-- KEYS[8]  the turn, "hasp_rwlock_turn:{<name>}"
-- ARGV[1]  the message published when the lock becomes free: "0" (wake one waiter, a writer)
-- ARGV[2]  the owner's read field, "<clientId>:<holderId>"
-- ARGV[3]  how long the latch lives, in milliseconds
-- ARGV[4]  "0" to give back the owner's newest hold; n > 0 to do so only when the owner has
--          exactly n holds (the undo of an abandoned acquisition that would have made n)
-- ARGV[5]  the publish command: 'publish', or 'spublish' where unlock messages travel on
--          sharded channels (a Redis 7 cluster)
-- ARGV[6]  the releasing process (its hasp client id; '' for none)
-- ARGV[7]  whether the releasing process keeps a place in line: '2' when other waiters of it go on waiting, '1'
--          when its acquisitions are expected back, '0' no (see turns.lua's announce_free)
-- ARGV[8]  the place lease in milliseconds
-- ARGV[9]  the turn's lease in milliseconds
-- ARGV[10] what the lock's turn channels start with, "hasp_rwlock_turn__channel:{<name>}:"
-- ARGV[11] '1' when the releasing process itself listens on the lock's channel, else '0'
--
-- Returns  nil when the owner holds no read lock (or not n holds; nothing changed); 0 when the
--          owner still has read holds; 1 when its last read hold ended and the lock is still held
--          (by other readers, or by this owner's write hold); when its last read hold ended and the lock was
--          freed (hash deleted, ARGV[1] published on KEYS[2]), 2 with nobody in line, else announce_free's 3, 4
--          or 5.

local earlier = redis.call('get', KEYS[5])
if earlier then
    return tonumber(earlier)
end

local count = tonumber(redis.call('hget', KEYS[1], ARGV[2]) or '0')
if count == 0 or (ARGV[4] ~= '0' and count ~= tonumber(ARGV[4])) then
    return nil
end
redis.call('del', KEYS[3] .. ':' .. count)
local outcome = 0
if count == 1 then
    redis.call('hdel', KEYS[1], ARGV[2])
    outcome = 1
else
    redis.call('hincrby', KEYS[1], ARGV[2], -1)
end

-- The longest remaining read hold of any owner (0: none is left).
local longest = 0
for _, field in ipairs(redis.call('hkeys', KEYS[1])) do
    local holds = tonumber(redis.call('hget', KEYS[1], field))
    if holds and string.sub(field, -6) ~= ':write' then
        for n = 1, holds do
            longest = math.max(longest, redis.call('pttl', KEYS[4] .. ':' .. field .. ':rwlock_timeout:' .. n))
        end
    end
end

if redis.call('hget', KEYS[1], 'mode') == 'write' then
    -- This owner's write hold keeps the lock; its lease is never shortened here.
    if longest > redis.call('pttl', KEYS[1]) then
        redis.call('pexpire', KEYS[1], longest)
    end
    redis.call('set', KEYS[5], outcome, 'px', ARGV[3])
    return outcome
end
if longest > 0 then
    redis.call('pexpire', KEYS[1], longest)
    redis.call('set', KEYS[5], outcome, 'px', ARGV[3])
    return outcome
end

redis.call('del', KEYS[1])
outcome = announce_free(KEYS[6], KEYS[7], KEYS[8], ARGV[5], KEYS[2], ARGV[1], ARGV[6], ARGV[7], tonumber(ARGV[8]),
        ARGV[9], ARGV[10], tonumber(ARGV[11])) or 2
redis.call('set', KEYS[5], outcome, 'px', ARGV[3])
return outcome
