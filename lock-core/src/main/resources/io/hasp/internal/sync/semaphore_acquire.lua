-- semaphore_acquire.lua: take permits of a semaphore when enough are free; a waiter that finds too few gives its
-- process a place in the semaphore's line (semaphore_line.lua, before this file).
--
-- Layout (shared with Redisson 4.x's RSemaphore): the free permits are a decimal string at the semaphore's name;
-- no key means the permits were never set (nothing to take). Releases are announced on "redisson_sc:{<name>}"
-- with the new number of free permits as the message.
--
-- KEYS[1]  the semaphore's key
-- KEYS[2]  its line, "hasp_semaphore_line:{<name>}"
-- KEYS[3]  the places in line, "hasp_semaphore_line_places:{<name>}"
-- KEYS[4]  the turns of woken processes, "hasp_semaphore_turns:{<name>}"
-- ARGV[1]  how many permits to take, at least 1
-- ARGV[2]  the caller's process (its client id), or '' where it takes no place in line
-- ARGV[3]  how long the process keeps its place when the caller waits, in milliseconds; 0: a single try
--
-- Returns  1 when they were taken, 0 when too few are free beside those the turns of other processes keep
--          (nothing changed but the place in line and the end of the process's own turn).

local free = redis.call('get', KEYS[1])
if free then
    local kept = kept_by_turns(KEYS[4], ARGV[2], server_millis())
    if tonumber(free) - kept >= tonumber(ARGV[1]) then
        redis.call('decrby', KEYS[1], ARGV[1])
        if ARGV[2] ~= '' then
            redis.call('zrem', KEYS[4], ARGV[2])
        end
        return 1
    end
end
if ARGV[2] ~= '' then
    redis.call('zrem', KEYS[4], ARGV[2])
    if tonumber(ARGV[3]) > 0 then
        stand_in_line(KEYS[2], KEYS[3], ARGV[2], tonumber(ARGV[3]))
    end
end
return 0
