-- fenced_acquire.lua: take or re-enter a reentrant lock for one owner and issue the acquisition's
-- fencing token; safe to send twice.
--
-- Layout (shared with Redisson 4.x's RFencedLock): the lock is the reentrant lock's hash (owner
-- field "<clientId>:<holderId>" to hold count, PEXPIRE as the lease); the tokens are a counter
-- under their own key in the lock's slot. Every acquisition, re-entries included, increments it.
--
-- KEYS[1]  the lock's hash
-- KEYS[2]  the token counter, "redisson_lock_token:{<name>}"
-- ARGV[1]  lease in milliseconds: the key's PEXPIRE once the owner holds the lock
-- ARGV[2]  the owner field, "<clientId>:<holderId>"
-- ARGV[3]  the hold count this request brings the owner to (the caller's count + 1). A request
--          re-sent after its reply was lost finds the count already reached: it adds no hold and
--          issues no token, and answers the counter's value, the token its first send issued (a
--          new token if the counter is gone).
--
-- Returns  the token as a bulk string when the owner holds the lock after the call; the status LOST
--          when a re-entry (ARGV[3] above 1) finds no hold of the owner (see acquire.lua); otherwise
--          the lock's remaining time to live in milliseconds as an integer (PTTL; -1: no expiry).

local held = redis.call('hget', KEYS[1], ARGV[2])
if not held and tonumber(ARGV[3]) > 1 then
    return redis.status_reply('LOST')
end
if held and tonumber(held) >= tonumber(ARGV[3]) then
    redis.call('pexpire', KEYS[1], ARGV[1])
    local issued = redis.call('get', KEYS[2])
    if issued then
        return issued
    end
    -- The counter is gone (deleted, evicted): a token from a new one, never 0.
    return string.format('%d', redis.call('incr', KEYS[2]))
end

if held or redis.call('exists', KEYS[1]) == 0 then
    redis.call('hincrby', KEYS[1], ARGV[2], 1)
    redis.call('pexpire', KEYS[1], ARGV[1])
    return string.format('%d', redis.call('incr', KEYS[2]))
end

return redis.call('pttl', KEYS[1])
