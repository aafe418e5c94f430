-- semaphore_set.lua: set a semaphore's permits when they were never set, and announce them. Layout: see
-- semaphore_acquire.lua.
--
-- KEYS[1]  the semaphore's key
-- KEYS[2]  its channel, "redisson_sc:{<name>}"
-- ARGV[1]  the number of permits, at least 0
-- ARGV[2]  the publish command: 'publish' or 'spublish'
--
-- Returns  1 when the permits were set, 0 when they were set before (nothing changed).

if redis.call('exists', KEYS[1]) == 1 then
    return 0
end
redis.call('set', KEYS[1], ARGV[1])
redis.call(ARGV[2], KEYS[2], ARGV[1])
return 1
