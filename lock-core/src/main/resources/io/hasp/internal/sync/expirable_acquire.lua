-- expirable_acquire.lua: lease permits of a permit-expirable semaphore, one id each, when enough are free; safe to
-- send twice. Runs after leases.lua (the layout, and the reclaiming of leases that ran out).
--
-- KEYS[1]  the free permits, "<name>"
-- KEYS[2]  the leases, "{<name>}:timeout"
-- KEYS[3]  the channel, "redisson_sc:{<name>}"
-- ARGV[1]  the lease in milliseconds
-- ARGV[2]  the publish command: 'publish', or 'spublish' where messages travel on sharded channels
-- ARGV[3..] the ids of the permits to lease (16 bytes each), one per permit, made by the caller
--
-- Returns  -1 when the ids hold their permits after the call (leased now, or by an earlier send of this same
--          request); otherwise too few are free (nothing leased), and the answer is how many milliseconds remain until
--          the first lease that can run out does (the next chance that no announcement will tell of), 0 when none can.

local free, leases, channel = KEYS[1], KEYS[2], KEYS[3]
local lease, publish = tonumber(ARGV[1]), ARGV[2]
local now = server_millis()

reclaim(free, leases, channel, publish, now)
if redis.call('zscore', leases, ARGV[3]) then
    return -1
end

local wanted = #ARGV - 2
local count = redis.call('get', free)
if count and tonumber(count) >= wanted then
    redis.call('decrby', free, wanted)
    for i = 3, #ARGV do
        redis.call('zadd', leases, lease_end(now, lease), ARGV[i])
    end
    -- The leases live as long as the permits when the permits' key has a time to live.
    local ttl = redis.call('pttl', free)
    if ttl > 0 then
        redis.call('pexpire', leases, ttl)
    end
    return -1
end

-- The first lease to end after now (a negative score, which a client's overflowing lease can write, never ends).
local first = redis.call('zrangebyscore', leases, '(' .. now, '+inf', 'withscores', 'limit', 0, 1)
if first[2] and tonumber(first[2]) < NEVER then
    return tonumber(first[2]) - now
end
return 0
