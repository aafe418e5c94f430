-- acquire.lua: take or re-enter a reentrant lock for one owner, or wait in line; safe to send twice. Runs after
-- turns.lua (the line of waiting processes and its helpers).
--
-- Layout (shared with Redisson 4.x): the lock is a hash whose single field is the owner,
-- "<clientId>:<holderId>", mapped to the owner's hold count; the key's PEXPIRE is the lease.
--
-- KEYS[1]  the lock's hash
-- KEYS[2]  the line, "hasp_lock_line:{<name>}"
-- KEYS[3]  what the keys of the places in line start with, "hasp_lock_line_place:{<name>}" (turns.lua)
-- KEYS[4]  the turn, "hasp_lock_turn:{<name>}"
-- KEYS[5]  the grant, "hasp_lock_grant:{<name>}" (turns.lua, grants)
-- ARGV[1]  lease in milliseconds: the key's PEXPIRE once the owner holds the lock
-- ARGV[2]  the owner field, "<clientId>:<holderId>"
-- ARGV[3]  the hold count this request brings the owner to (the caller's count + 1). A request
--          re-sent after its reply was lost finds the count already reached and adds nothing.
-- ARGV[4]  the calling process (its hasp client id), which may take the lock on its turn
-- ARGV[5]  the place lease in milliseconds when the caller waits for the lock; '0' for a single try, which takes
--          no place in line
-- ARGV[6]  the caller as its process's heir, "<stamp>:<lease ms>:<owner field>": when its process waits in line
--          for its turn, a release may grant the lock to it (turns.lua); '' for none
--
-- Returns  nil when the owner holds the lock after the call (taken, re-entered, or taken by an
--          earlier send of this same request); the status LOST when a re-entry (ARGV[3] above 1)
--          finds no hold of the owner: the hold its caller counts on ended unnoticed, and a fresh
--          grant of one hold would let the caller's inner unlock free the lock under its outer code.
--          Otherwise the lock is taken or it is another process's turn, and the answer is how long the caller
--          may park before it looks again, in milliseconds (turns.lua's wait_in_line): below -1 when its process
--          waits in line for its turn, which comes on its own channel.
--
-- An owner that finds itself holding at its target of 1 was granted the lock: that consumes the grant, so that a
-- decline of that grant, sent late, cannot free the hold this acquire now reports. A waiter that takes
-- the free lock itself stays its process's heir until the process's next waiter in line replaces it, its process's
-- turn uses up the place, or the place runs out (a grant to it meanwhile is declined by its process): the common
-- path pays nothing for grants.
--
-- Server work on the common path, a free lock taken: EXISTS, GET (the turn), HSET, PEXPIRE.

local lock, line, places, turn, grant = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local owner, target, process, place_millis = ARGV[2], tonumber(ARGV[3]), ARGV[4], tonumber(ARGV[5])
local heir = ARGV[6] or ''

-- Waits in line (wait_in_line), and names the caller its process's heir when the process waits for its turn.
local function wait_as_heir(free)
    return wait_in_line(lock, line, places, turn, process, place_millis, free, nil, heir ~= '' and heir or nil)
end

if redis.call('exists', lock) == 0 then
    if target > 1 then
        return redis.status_reply('LOST')
    end
    if not may_take(turn, process) then
        return wait_as_heir(true)
    end
    redis.call('hset', lock, owner, 1)
    redis.call('pexpire', lock, ARGV[1])
    return nil
end

local held = redis.call('hget', lock, owner)
if held then
    if tonumber(held) < target then
        redis.call('hincrby', lock, owner, 1)
    elseif target == 1 then
        redis.call('del', grant)
    end
    redis.call('pexpire', lock, ARGV[1])
    return nil
end
if target > 1 then
    return redis.status_reply('LOST')
end
return wait_as_heir(false)
