-- fair_force_unlock.lua: free the fair lock whoever holds it, however many times. Runs after fair_queue.lua
-- (its KEYS, ARGV[1..4] and helpers; ARGV[1], the owner, is unused).
--
-- Returns  1 when a lock existed and was deleted (the head of the queue woken), 0 when there was none.

if redis.call('del', lock) == 1 then
    wake_head()
    return 1
end
return 0
