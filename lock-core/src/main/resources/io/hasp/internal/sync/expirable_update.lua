-- expirable_update.lua: set a new lease, from now, for one leased permit of a permit-expirable semaphore. Runs after
-- leases.lua (the layout): leases that ran out are reclaimed first, so a permit whose lease ended is not renewed.
--
-- KEYS[1]  the free permits, "<name>"
-- KEYS[2]  the leases, "{<name>}:timeout"
-- KEYS[3]  the channel, "redisson_sc:{<name>}"
-- ARGV[1]  the permit's id (16 bytes)
-- ARGV[2]  the new lease in milliseconds
-- ARGV[3]  the publish command: 'publish' or 'spublish'
--
-- Returns  1 when the permit was leased (its lease now ends ARGV[2] ms from now), 0 when not (nothing changed but
--          the reclaiming).

local free, leases, channel = KEYS[1], KEYS[2], KEYS[3]
local now = server_millis()
reclaim(free, leases, channel, ARGV[3], now)
if not redis.call('zscore', leases, ARGV[1]) then
    return 0
end
redis.call('zadd', leases, lease_end(now, tonumber(ARGV[2])), ARGV[1])
return 1
