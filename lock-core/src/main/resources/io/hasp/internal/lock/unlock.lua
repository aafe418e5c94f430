-- unlock.lua: give back one hold of a reentrant lock; safe to send twice.
--
-- KEYS[1]  the lock's hash (owner field -> hold count)
-- KEYS[2]  the lock's unlock channel, "redisson_lock__channel:{<name>}"
-- KEYS[3]  this request's unlock latch, "redisson_unlock_latch:{<name>}:<requestId>": it records
--          the outcome so that the same request sent again (after a timeout or a lost reply)
--          answers what the first send did instead of failing for the real owner
-- ARGV[1]  the message published when the lock becomes free: "0" (wake one waiter)
-- ARGV[2]  lease in milliseconds to set when the owner still holds the lock afterwards
-- ARGV[3]  the owner field, "<clientId>:<holderId>"
-- ARGV[4]  how long the latch lives, in milliseconds (longer than the caller's retry budget)
-- ARGV[5]  the publish command: 'publish', or 'spublish' where unlock messages travel on
--          sharded channels (a Redis 7 cluster)
-- ARGV[6]  optional: the owner field of a waiter of the same client to hand the lock to when this
--          owner's last hold ends ("" or absent: free the lock for everyone)
-- ARGV[7]  with ARGV[6]: that waiter's lease in milliseconds
--
-- Returns  nil when the owner does not hold the lock (nothing changed); 0 when the owner still
--          holds it (count decremented, lease reset to ARGV[2]); 1 when the lock was freed
--          (key deleted, ARGV[1] published on KEYS[2]); 2 when it was handed over: the hash now
--          holds only ARGV[6] with one hold and lease ARGV[7], and nothing is published (the
--          lock was never free, so no waiter anywhere has anything to look at).
--
-- Every send reads the latch first, the first one too: a re-send travels on another connection and may
-- run before it, and the first send must then answer what the re-send did instead of giving back a
-- second hold. Server work on the common path, the last hold given back: GET (the latch), HGET, DEL,
-- the publish and the latch's SET. The latch cannot be left out: once the hash is deleted (Redisson's
-- free lock is no key at all), it is the only record that this request freed it rather than finding
-- it gone.

local earlier = redis.call('get', KEYS[3])
if earlier then
    return tonumber(earlier)
end

local count = redis.call('hget', KEYS[1], ARGV[3])
if not count then
    return nil
end

if tonumber(count) > 1 then
    redis.call('hincrby', KEYS[1], ARGV[3], -1)
    redis.call('pexpire', KEYS[1], ARGV[2])
    redis.call('set', KEYS[3], 0, 'px', ARGV[4])
    return 0
end

redis.call('del', KEYS[1])
if ARGV[6] and ARGV[6] ~= '' then
    redis.call('hset', KEYS[1], ARGV[6], 1)
    redis.call('pexpire', KEYS[1], ARGV[7])
    redis.call('set', KEYS[3], 2, 'px', ARGV[4])
    return 2
end
redis.call(ARGV[5], KEYS[2], ARGV[1])
redis.call('set', KEYS[3], 1, 'px', ARGV[4])
return 1
