-- write_unlock.lua: give back one write hold of a read/write lock; safe to send twice. Runs after turns.lua: a
-- release that frees the lock gives the turn to the first process in the writers' line. Layout: see
-- read_acquire.lua.
--
-- KEYS[1]  the lock's hash
-- KEYS[2]  the lock's channel, "redisson_rwlock:{<name>}"
-- KEYS[3]  the lock's hash tag, "{<name>}": every holder's timeout keys are
--          "<KEYS[3]>:<field>:rwlock_timeout:<n>"
-- KEYS[4]  this request's unlock latch, "redisson_unlock_latch:{<name>}:<requestId>"
-- KEYS[5]  the line of processes waiting for the write lock, "hasp_rwlock_line:{<name>}"
-- KEYS[6]  what the keys of their places start with, "hasp_rwlock_line_place:{<name>}" (turns.lua)
-- KEYS[7]  the turn, "hasp_rwlock_turn:{<name>}"
-- ARGV[1]  the message published when the write hold ends: "1" (wake all waiters: readers
--          enter together)
-- ARGV[2]  the owner's write field, "<clientId>:<holderId>:write"
-- ARGV[3]  how long the latch lives, in milliseconds
-- ARGV[4]  "0" to give back one hold; n > 0 to do so only when the owner has exactly n write
--          holds (the undo of an abandoned acquisition that would have made n)
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
-- Returns  nil when the owner does not hold the write lock (or not n holds; nothing changed);
--          0 when it still holds it (one hold fewer); 1 when its write hold ended and the lock
--          stays in read mode for the owner's own read holds (a downgrade); when its write hold ended and the
--          lock was freed, 2 with nobody in line, else announce_free's 3, 4 or 5. ARGV[1] is published whenever
--          the write hold ended.

local earlier = redis.call('get', KEYS[4])
if earlier then
    return tonumber(earlier)
end

if redis.call('hget', KEYS[1], 'mode') ~= 'write' then
    return nil
end
local count = tonumber(redis.call('hget', KEYS[1], ARGV[2]) or '0')
if count == 0 or (ARGV[4] ~= '0' and count ~= tonumber(ARGV[4])) then
    return nil
end
if count > 1 then
    redis.call('hincrby', KEYS[1], ARGV[2], -1)
    redis.call('set', KEYS[4], 0, 'px', ARGV[3])
    return 0
end
redis.call('hdel', KEYS[1], ARGV[2])

-- Read holds taken under the write hold (downgrade) keep the lock, in read mode.
local longest = 0
for _, field in ipairs(redis.call('hkeys', KEYS[1])) do
    local holds = tonumber(redis.call('hget', KEYS[1], field))
    if holds and string.sub(field, -6) ~= ':write' then
        for n = 1, holds do
            longest = math.max(longest, redis.call('pttl', KEYS[3] .. ':' .. field .. ':rwlock_timeout:' .. n))
        end
    end
end
local outcome
if longest > 0 then
    redis.call('hset', KEYS[1], 'mode', 'read')
    redis.call('pexpire', KEYS[1], longest)
    redis.call(ARGV[5], KEYS[2], ARGV[1])
    outcome = 1
else
    redis.call('del', KEYS[1])
    outcome = announce_free(KEYS[5], KEYS[6], KEYS[7], ARGV[5], KEYS[2], ARGV[1], ARGV[6], ARGV[7],
            tonumber(ARGV[8]), ARGV[9], ARGV[10], tonumber(ARGV[11])) or 2
end
redis.call('set', KEYS[4], outcome, 'px', ARGV[3])
return outcome
