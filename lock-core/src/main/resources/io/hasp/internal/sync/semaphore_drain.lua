-- semaphore_drain.lua: take every free permit of a semaphore. Layout: see semaphore_acquire.lua.
--
-- KEYS[1]  the semaphore's key
--
-- Returns  how many permits were taken (0 when none were free, or the permits were never set); a count below zero
--          is returned as it was, and set to 0 all the same, as Redisson's drain does.

local free = redis.call('get', KEYS[1])
if not free then
    return 0
end
redis.call('set', KEYS[1], 0)
return tonumber(free)
