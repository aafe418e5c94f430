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
--   the turns   "hasp_semaphore_turns:{<name>}": a sorted set, woken process -> the end of its turn in the
--               server's milliseconds (TURN_MILLIS after the wake). While it lasts, each turn keeps one free permit
--               from hasp's callers of other processes (Redisson's do not read it), so that a caller that just
--               released and asks again at once does not take what a woken process was woken for. A try of the
--               process ends its turn, and so does passing the wake on.
-- A process hears that permits were freed on its own channel, "hasp_semaphore_wake__channel:{<name>}:<process>",
-- with the message "<free permits>:<hops>": hops is how many more processes the wake may be passed on to when none
-- of this process's waiters fit (semaphore_pass.lua), so a wake nobody can use visits each process once at most.
--
-- A release that woke the line still announces the new number of free permits on the shared channel, for
-- Redisson's waiters (wherever they listen: a master's replicas pass a publish on), but marked with a leading zero
-- ("03" for 3), which Redisson reads as the number and hasp's processes in line pass by: they were woken, or not,
-- on their own channels.

-- The server's clock in milliseconds (scripts replicate their effects, so reading it is allowed).
local function server_millis()
    local clock = redis.call('time')
    return tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
end

-- How long a woken process's turn keeps a free permit for it, in milliseconds.
local TURN_MILLIS = 200

-- How many free permits the live turns of processes other than process ('' for none) keep; turns that ran out
-- go.
local function kept_by_turns(turns, process, now)
    redis.call('zremrangebyscore', turns, '-inf', now)
    local kept = redis.call('zcard', turns)
    if kept > 0 and process ~= '' and redis.call('zscore', turns, process) then
        kept = kept - 1
    end
    return kept
end

-- Gives process a place in line for place_millis: at the end; a process already in line keeps its place and
-- renews it.
local function stand_in_line(line, places, process, place_millis)
    if not redis.call('zscore', places, process) and not redis.call('lpos', line, process) then
        redis.call('rpush', line, process)
    end
    redis.call('zadd', places, server_millis() + place_millis, process)
    -- Both keys go when nobody has stood in line for a while.
    redis.call('pexpire', line, place_millis * 2)
    redis.call('pexpire', places, place_millis * 2)
end

-- Wakes up to count processes in line, in order, each with message on its own channel (publish: 'publish' or
-- 'spublish') and a turn, passing over except; a woken process goes to the end of the line, and one whose place
-- ran out or that no longer listens leaves it. Returns how many heard the message.
local function wake_line(line, places, turns, prefix, publish, message, count, except)
    local woken = 0
    local now
    for _ = 1, redis.call('llen', line) do
        if woken >= count then
            break
        end
        local next = redis.call('lindex', line, 0)
        local stays = next == except
        if not stays then
            local place = redis.call('zscore', places, next)
            now = now or server_millis()
            stays = place and tonumber(place) > now and redis.call(publish, prefix .. next, message) > 0
            if stays then
                woken = woken + 1
                redis.call('zadd', turns, now + TURN_MILLIS, next)
                redis.call('pexpire', turns, TURN_MILLIS * 2)
            else
                redis.call('zrem', places, next)
            end
        end
        if stays then
            redis.call('lmove', line, line, 'LEFT', 'RIGHT')   -- to the end; the list keeps its time to live
        else
            redis.call('lpop', line)
        end
    end
    return woken
end
