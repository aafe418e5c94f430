-- semaphore_drain.lua: take every free permit of a semaphore. Layout: see semaphore_acquire.lua.
--
-- KEYS[1]  the semaphore's key
--
-- Returns  how many permits were taken (0 when none were free, or the permits were never set).

local free = redis.call('get', KEYS[1])
if not free then
    return 0
end
redis.call('set', KEYS[1], 0)
return math.max(0, tonumber(free))
