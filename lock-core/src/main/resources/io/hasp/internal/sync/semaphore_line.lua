-- semaphore_line.lua: the line of hasp processes waiting for a semaphore's permits, which a release wakes a few at
-- a time instead of all at once. The opening of semaphore_acquire.lua, semaphore_release.lua and
-- semaphore_pass.lua, which pass it their keys by name: its functions read no KEYS or ARGV of their own.
--
-- Layout: hasp's own keys beside the semaphore's, which Redisson neither reads nor writes.
--   the line    "hasp_semaphore_line:{<name>}": a list of waiting processes (hasp client ids), in the order they
--               are woken; a woken process goes to its end.
--   the places  "hasp_semaphore_line_places:{<name>}": a sorted set, waiting process -> the end of its place lease
--               in the server's milliseconds, renewed by each failed try of one of that process's waiters. A place
--               that ran out, or whose process no longer listens, is dropped when a wake reaches it.
-- A process hears that permits were freed on its own channel, "hasp_semaphore_wake__channel:{<name>}:<process>",
-- with the message "<free permits>:<hops>": hops is how many more processes the wake may be passed on to when none
-- of this process's waiters fit (semaphore_pass.lua), so a wake nobody can use visits each process once at most.
--
-- A hasp process subscribes to the semaphore's shared channel first and to its own channel second, and leaves them
-- in the opposite order: every listener of an own channel also listens on the shared one. So a release can tell
-- whether anyone else listens on the shared channel (Redisson's waiters, or a hasp process that has not stood in
-- line yet): then it announces there, as Redisson's release does, and every listening process looks.

-- The server's clock in milliseconds (scripts replicate their effects, so reading it is allowed).
local function server_millis()
    local clock = redis.call('time')
    return tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
end

-- Gives process a place in line for place_millis: at the end; a process already in line keeps its place and
-- renews it.
local function stand_in_line(line, places, process, place_millis)
    if not redis.call('zscore', places, process) then
        redis.call('rpush', line, process)
    end
    redis.call('zadd', places, server_millis() + place_millis, process)
    -- Both keys go when nobody has stood in line for a while.
    redis.call('pexpire', line, place_millis * 2)
    redis.call('pexpire', places, place_millis * 2)
end

-- Whether anyone but the processes in line listens on the shared channel: its listeners are counted
-- (numsub: 'numsub', or 'shardnumsub' for sharded channels) against the processes in line that listen on their own
-- channel (each of which listens on the shared channel too).
local function others_listen(channel, places, prefix, numsub)
    local shared = tonumber(redis.call('pubsub', numsub, channel)[2])
    if shared == 0 then
        return false
    end
    local members = redis.call('zrange', places, 0, -1)
    if #members == 0 or #members > 1000 then   -- nobody in line; or too many to count in one call: announce
        return true
    end
    local own = {}
    for i, member in ipairs(members) do
        own[i] = prefix .. member
    end
    local counts = redis.call('pubsub', numsub, unpack(own))
    local in_line = 0
    for i = 2, #counts, 2 do
        if tonumber(counts[i]) > 0 then
            in_line = in_line + 1
        end
    end
    return shared > in_line
end

-- Wakes up to count processes in line, in order, each with message on its own channel (publish: 'publish' or
-- 'spublish'), passing over except; a woken process goes to the end of the line, and one whose place ran out or
-- that no longer listens leaves it. Returns how many heard the message.
local function wake_line(line, places, prefix, publish, message, count, except)
    local woken = 0
    local now
    for _ = 1, redis.call('llen', line) do
        if woken >= count then
            break
        end
        local next = redis.call('lpop', line)
        if next == except then
            redis.call('rpush', line, next)
        else
            local place = redis.call('zscore', places, next)
            now = now or server_millis()
            if place and tonumber(place) > now and redis.call(publish, prefix .. next, message) > 0 then
                redis.call('rpush', line, next)
                woken = woken + 1
            else
                redis.call('zrem', places, next)
            end
        end
    end
    return woken
end
