-- fair_rollback.lua: a waiter of the fair lock stops waiting (deadline passed, interrupted, cancelled, its
-- reply lost): undo the grant its last request may have made, and take it out of the queue. Safe to send
-- twice, harmless when nothing of it is there. Runs after fair_queue.lua (its KEYS, ARGV[1..4] and helpers).
--
-- ARGV[5]  the hold count the abandoned request would have brought the owner to; 0 when it is known to have
--          granted nothing (its answer put the owner in line): then only the place is given back
-- ARGV[6]  lease in milliseconds to set when the owner still holds the lock afterwards
--
-- Returns  1 when a grant was undone or a place given back (the new head woken if the lock is free),
--          0 when there was nothing to undo.

local undone, freed = false, false
local held = redis.call('hget', lock, owner)
if held and tonumber(held) == tonumber(ARGV[5]) then
    if tonumber(held) > 1 then
        redis.call('hincrby', lock, owner, -1)
        redis.call('pexpire', lock, ARGV[6])
    else
        redis.call('del', lock)
        freed = true
    end
    undone = true
end
local headed = redis.call('lindex', queue, 0) == owner
local left = leave(owner)
if not (undone or left) then
    return 0
end
expire_queue()
if (freed or (left and headed)) and redis.call('exists', lock) == 0 then
    wake_head()
end
return 1
