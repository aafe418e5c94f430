-- expirable_renew.lua: renew the leases of permits that hasp's watchdog keeps (permits taken without a lease), one
-- semaphore's in one call. Runs after leases.lua (the layout): leases that ran out are reclaimed first, so a permit
-- whose lease ended (its process paused past it, say) is reported gone, not renewed.
--
-- KEYS[1]  the free permits, "<name>"
-- KEYS[2]  the leases, "{<name>}:timeout"
-- KEYS[3]  the channel, "redisson_sc:{<name>}"
-- ARGV[1]  the lease in milliseconds, from now
-- ARGV[2]  the publish command: 'publish' or 'spublish'
-- ARGV[3..] the ids of the permits (16 bytes each)
--
-- Returns  one character per id, in order: '1' when its permit was leased (its lease now ends ARGV[1] ms from now),
--          '0' when it is not (given back, or reclaimed: it is gone).

local free, leases, channel = KEYS[1], KEYS[2], KEYS[3]
local now = server_millis()
reclaim(free, leases, channel, ARGV[2], now)
local ends = lease_end(now, tonumber(ARGV[1]))
local outcome = {}
for i = 3, #ARGV do
    if redis.call('zscore', leases, ARGV[i]) then
        redis.call('zadd', leases, ends, ARGV[i])
        outcome[#outcome + 1] = '1'
    else
        outcome[#outcome + 1] = '0'
    end
end
return table.concat(outcome)
