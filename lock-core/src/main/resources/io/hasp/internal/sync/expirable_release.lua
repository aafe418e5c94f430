-- expirable_release.lua: give back one leased permit of a permit-expirable semaphore by its id, and announce the new
-- number of free permits. Runs after leases.lua (the layout). A send repeated after a lost reply finds the id gone
-- and answers 0, like an id never leased.
--
-- KEYS[1]  the free permits, "<name>"
-- KEYS[2]  the leases, "{<name>}:timeout"
-- KEYS[3]  the channel, "redisson_sc:{<name>}"
-- ARGV[1]  the permit's id (16 bytes)
-- ARGV[2]  the publish command: 'publish' or 'spublish'
--
-- Returns  1 when the permit was leased and is free now; 2 when its lease had run out (it was not reclaimed yet: it
--          is free now, as a reclaim would have made it); 0 when no permit of that id is leased (nothing changed).

local free, leases, channel = KEYS[1], KEYS[2], KEYS[3]
local ends = redis.call('zscore', leases, ARGV[1])
if not ends then
    return 0
end
redis.call('zrem', leases, ARGV[1])
local count = redis.call('incrby', free, 1)
if count > 0 then
    redis.call(ARGV[2], channel, count)
end
if tonumber(ends) <= server_millis() then
    return 2
end
return 1
