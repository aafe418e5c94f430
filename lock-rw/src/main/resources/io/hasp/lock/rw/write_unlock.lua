-- write_unlock.lua: give back one write hold of a read/write lock; safe to send twice. Layout:
-- see read_acquire.lua.
--
-- KEYS[1]  the lock's hash
-- KEYS[2]  the lock's channel, "redisson_rwlock:{<name>}"
-- KEYS[3]  the lock's hash tag, "{<name>}": every holder's timeout keys are
--          "<KEYS[3]>:<field>:rwlock_timeout:<n>"
-- KEYS[4]  this request's unlock latch, "redisson_unlock_latch:{<name>}:<requestId>"
-- ARGV[1]  the message published when the write hold ends: "1" (wake all waiters: readers
--          enter together)
-- ARGV[2]  the owner's write field, "<clientId>:<holderId>:write"
-- ARGV[3]  how long the latch lives, in milliseconds
-- ARGV[4]  "0" to give back one hold; n > 0 to do so only when the owner has exactly n write
--          holds (the undo of an abandoned acquisition that would have made n)
-- ARGV[5]  the publish command: 'publish', or 'spublish' where unlock messages travel on
--          sharded channels (a Redis 7 cluster)
--
-- Returns  nil when the owner does not hold the write lock (or not n holds; nothing changed);
--          0 when it still holds it (one hold fewer); 1 when its write hold ended and the lock
--          stays in read mode for the owner's own read holds (a downgrade); 2 when its write hold
--          ended and the lock was freed. ARGV[1] is published in both of the last cases.

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
local outcome = 2
if longest > 0 then
    redis.call('hset', KEYS[1], 'mode', 'read')
    redis.call('pexpire', KEYS[1], longest)
    outcome = 1
else
    redis.call('del', KEYS[1])
end
redis.call(ARGV[5], KEYS[2], ARGV[1])
redis.call('set', KEYS[4], outcome, 'px', ARGV[3])
return outcome
