-- read_acquire.lua: take or re-enter the read lock of a read/write lock for one owner; safe to
-- send twice.
--
-- Layout (shared with Redisson 4.x's RReadWriteLock): the lock is a hash with the field 'mode'
-- ('read' or 'write'), one field per read holder, "<clientId>:<holderId>" -> its read hold count,
-- and the write holder's field "<clientId>:<holderId>:write" -> its write hold count. Read hold
-- number n of an owner has its own timeout key "<KEYS[2]>:<n>" whose TTL is that hold's lease;
-- the hash lives as long as the longest hold.
--
-- KEYS[1]  the lock's hash
-- KEYS[2]  this owner's timeout key prefix, "{<name>}:<clientId>:<holderId>:rwlock_timeout"
-- ARGV[1]  this hold's lease in milliseconds
-- ARGV[2]  the owner's read field, "<clientId>:<holderId>"
-- ARGV[3]  the owner's write field, "<clientId>:<holderId>:write": holding the write lock lets
--          the owner take the read lock too (the first step of a downgrade)
-- ARGV[4]  the read hold count this request brings the owner to (its count + 1). A request
--          re-sent after its reply was lost finds the count reached, refreshes that hold's
--          timeout key and adds nothing.
--
-- Returns  nil when the owner holds the read lock after the call; the status LOST when a re-entry
--          (ARGV[4] above 1) finds no read hold of the owner: the hold its caller counts on ended
--          unnoticed, and a fresh grant would let the caller's inner unlock free it under its outer
--          code; otherwise the lock's remaining time to live in milliseconds (PTTL; -1 when the
--          holder set no expiry).

if tonumber(ARGV[4]) > 1 and redis.call('hexists', KEYS[1], ARGV[2]) == 0 then
    return redis.status_reply('LOST')
end
local lease = tonumber(ARGV[1])
local mode = redis.call('hget', KEYS[1], 'mode')
if mode == 'write' and redis.call('hexists', KEYS[1], ARGV[3]) == 0 then
    return redis.call('pttl', KEYS[1])
end
if not mode then
    redis.call('hset', KEYS[1], 'mode', 'read')
end

local count = tonumber(redis.call('hget', KEYS[1], ARGV[2]) or '0')
if count < tonumber(ARGV[4]) then
    count = redis.call('hincrby', KEYS[1], ARGV[2], 1)
end
redis.call('set', KEYS[2] .. ':' .. count, 1, 'px', lease)

-- The hash lives as long as its longest hold: extend it, never shorten it.
if redis.call('pttl', KEYS[1]) < lease then
    redis.call('pexpire', KEYS[1], lease)
end
return nil
