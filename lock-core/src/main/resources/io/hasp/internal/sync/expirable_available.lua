-- expirable_available.lua: the number of free permits of a permit-expirable semaphore, once leases that ran out are
-- reclaimed. Runs after leases.lua (the layout).
--
-- KEYS[1]  the free permits, "<name>"
-- KEYS[2]  the leases, "{<name>}:timeout"
-- KEYS[3]  the channel, "redisson_sc:{<name>}"
-- ARGV[1]  the publish command: 'publish' or 'spublish'
--
-- Returns  the number of free permits (0 when they were never set).

local count = reclaim(KEYS[1], KEYS[2], KEYS[3], ARGV[1], server_millis())
if count then
    return count
end
return tonumber(redis.call('get', KEYS[1]) or '0')
