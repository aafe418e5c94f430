-- fenced_acquire.lua: take or re-enter a reentrant lock for one owner and issue the acquisition's
-- fencing token, or wait in line; safe to send twice. Runs after turns.lua (the line of waiting processes).
--
-- Layout (shared with Redisson 4.x's RFencedLock): the lock is the reentrant lock's hash (owner
-- field "<clientId>:<holderId>" to hold count, PEXPIRE as the lease); the tokens are a counter
-- under their own key in the lock's slot. Every acquisition, re-entries included, increments it.
--
-- KEYS[1]  the lock's hash
-- KEYS[2]  the token counter, "redisson_lock_token:{<name>}"
-- KEYS[3]  the line, "hasp_lock_line:{<name>}"
-- KEYS[4]  what the keys of the places in line start with, "hasp_lock_line_place:{<name>}" (turns.lua)
-- KEYS[5]  the turn, "hasp_lock_turn:{<name>}"
-- KEYS[6]  the grant, "hasp_lock_grant:{<name>}" (turns.lua: a plain lock's waiter of the same owner may be granted
--          the lock, which a fenced acquire of that owner then takes)
-- ARGV[1]  lease in milliseconds: the key's PEXPIRE once the owner holds the lock
-- ARGV[2]  the owner field, "<clientId>:<holderId>"
-- ARGV[3]  the hold count this request brings the owner to (the caller's count + 1). A request
--          re-sent after its reply was lost finds the count already reached: it adds no hold and
--          issues no token, and answers the counter's value, the token its first send issued (a
--          new token if the counter is gone).
-- ARGV[4]  the calling process (its hasp client id), which may take the lock on its turn
-- ARGV[5]  the place lease in milliseconds when the caller waits for the lock; '0' for a single try
--
-- Returns  the token as a bulk string when the owner holds the lock after the call; the status LOST
--          when a re-entry (ARGV[3] above 1) finds no hold of the owner (see acquire.lua); otherwise how long
--          to park, as an integer, as acquire.lua answers it (turns.lua's wait_in_line).

local held = redis.call('hget', KEYS[1], ARGV[2])
if not held and tonumber(ARGV[3]) > 1 then
    return redis.status_reply('LOST')
end
if held and tonumber(held) >= tonumber(ARGV[3]) then
    redis.call('pexpire', KEYS[1], ARGV[1])
    -- A lock granted to this owner as its process's heir (turns.lua), and not taken yet, is taken now: the grant is
    -- consumed (a decline sent late then changes nothing), and the hold gets a token of its own.
    if tonumber(ARGV[3]) == 1 and KEYS[6] and redis.call('del', KEYS[6]) == 1 then
        return string.format('%d', redis.call('incr', KEYS[2]))
    end
    local issued = redis.call('get', KEYS[2])
    if issued then
        return issued
    end
    -- The counter is gone (deleted, evicted): a token from a new one, never 0.
    return string.format('%d', redis.call('incr', KEYS[2]))
end

local free = not held and redis.call('exists', KEYS[1]) == 0
if held or (free and may_take(KEYS[5], ARGV[4])) then
    redis.call('hincrby', KEYS[1], ARGV[2], 1)
    redis.call('pexpire', KEYS[1], ARGV[1])
    return string.format('%d', redis.call('incr', KEYS[2]))
end
return wait_in_line(KEYS[1], KEYS[3], KEYS[4], KEYS[5], ARGV[4], tonumber(ARGV[5]), free)
