-- acquire.lua: take or re-enter a reentrant lock for one owner; safe to send twice.
--
-- Layout (shared with Redisson 4.x): the lock is a hash whose single field is the owner,
-- "<clientId>:<holderId>", mapped to the owner's hold count; the key's PEXPIRE is the lease.
--
-- KEYS[1]  the lock's hash
-- ARGV[1]  lease in milliseconds: the key's PEXPIRE once the owner holds the lock
-- ARGV[2]  the owner field, "<clientId>:<holderId>"
-- ARGV[3]  the hold count this request brings the owner to (the caller's count + 1). A request
--          re-sent after its reply was lost finds the count already reached and adds nothing.
--
-- Returns  nil when the owner holds the lock after the call (taken, re-entered, or taken by an
--          earlier send of this same request); the status LOST when a re-entry (ARGV[3] above 1)
--          finds no hold of the owner: the hold its caller counts on ended unnoticed, and a fresh
--          grant of one hold would let the caller's inner unlock free the lock under its outer code;
--          otherwise the lock's remaining time to live in milliseconds (PTTL; -1 when the holder set
--          no expiry).
--
-- Server work on the common path, a free lock taken: EXISTS, HSET, PEXPIRE.

if redis.call('exists', KEYS[1]) == 0 then
    if tonumber(ARGV[3]) > 1 then
        return redis.status_reply('LOST')
    end
    redis.call('hset', KEYS[1], ARGV[2], 1)
    redis.call('pexpire', KEYS[1], ARGV[1])
    return nil
end

local held = redis.call('hget', KEYS[1], ARGV[2])
if held then
    if tonumber(held) < tonumber(ARGV[3]) then
        redis.call('hincrby', KEYS[1], ARGV[2], 1)
    end
    redis.call('pexpire', KEYS[1], ARGV[1])
    return nil
end
if tonumber(ARGV[3]) > 1 then
    return redis.status_reply('LOST')
end

return redis.call('pttl', KEYS[1])
