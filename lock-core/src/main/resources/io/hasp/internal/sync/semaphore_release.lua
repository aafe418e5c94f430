-- semaphore_release.lua: give permits back to a semaphore, or add some, and announce the new number of free
-- permits to its waiters. Layout: see semaphore_acquire.lua.
--
-- KEYS[1]  the semaphore's key
-- KEYS[2]  its channel, "redisson_sc:{<name>}"
-- ARGV[1]  how many permits to add (may be negative: permits taken away)
-- ARGV[2]  the publish command: 'publish', or 'spublish' where messages travel on sharded channels
--
-- Returns  the number of free permits afterwards.

local free = redis.call('incrby', KEYS[1], ARGV[1])
redis.call(ARGV[2], KEYS[2], free)
return free
