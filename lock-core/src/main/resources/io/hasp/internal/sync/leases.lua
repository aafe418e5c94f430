-- leases.lua: the leased permits of a permit-expirable semaphore, and the reclaiming of leases that ran out. The
-- opening of expirable_acquire.lua, expirable_release.lua, expirable_update.lua and expirable_available.lua, which
-- pass it their keys by name: its functions read no KEYS or ARGV of their own.
--
-- Layout (shared with Redisson's RPermitExpirableSemaphore, 3.x and 4.x):
--   the free permits  "<name>": a decimal string, as for the plain semaphore (no key: never set, none free)
--   the leases        "{<name>}:timeout" ("<name>:timeout" when the name has a hash tag): a sorted set with one
--                     member per leased permit, the 16 raw bytes of its id, scored by the end of its lease in epoch
--                     milliseconds; NEVER scores a lease that does not end
--   the channel       "redisson_sc:{<name>}": the new number of free permits when permits come back
-- A lease that ran out is reclaimed by whichever call looks next, whoever's: its member goes and its permit is free
-- again. hasp's scripts read the time from the server's clock; Redisson's clients pass their own.

-- Effects replication, which reading the server's clock before writing needs (the default from Redis 5 on; a no-op
-- on 7).
redis.replicate_commands()

-- The score of a lease that does not end (Redisson's: about the year 31197 in epoch milliseconds). No score is written
-- above it: Redisson reads scores as whole numbers, and a larger one comes back in exponent form.
local NEVER = 922337203685477

-- The end of a lease of lease_millis from now: a whole number of milliseconds, NEVER at the most.
local function lease_end(now, lease_millis)
    return math.min(now + lease_millis, NEVER)
end

-- The server's clock in milliseconds (scripts replicate their effects, so reading it is allowed).
local function server_millis()
    local clock = redis.call('time')
    return tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
end

-- Frees the permits whose leases ended by now and announces the new number free when some are; returns that number,
-- or nil when no lease had ended.
local function reclaim(free, leases, channel, publish, now)
    local ended = redis.call('zrangebyscore', leases, 0, now)
    if #ended == 0 then
        return nil
    end
    for first = 1, #ended, 1000 do
        redis.call('zrem', leases, unpack(ended, first, math.min(first + 999, #ended)))
    end
    local count = redis.call('incrby', free, #ended)
    if count > 0 then
        redis.call(publish, channel, count)
    end
    return count
end
