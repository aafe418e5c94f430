-- semaphore_acquire.lua: take permits of a semaphore when enough are free.
--
-- Layout (shared with Redisson 4.x's RSemaphore): the free permits are a decimal string at the semaphore's name;
-- no key means the permits were never set (nothing to take). Releases are announced on "redisson_sc:{<name>}"
-- with the new number of free permits as the message.
--
-- KEYS[1]  the semaphore's key
-- ARGV[1]  how many permits to take, at least 1
--
-- Returns  1 when they were taken, 0 when fewer are free (nothing changed).

local free = redis.call('get', KEYS[1])
if free and tonumber(free) >= tonumber(ARGV[1]) then
    redis.call('decrby', KEYS[1], ARGV[1])
    return 1
end
return 0
