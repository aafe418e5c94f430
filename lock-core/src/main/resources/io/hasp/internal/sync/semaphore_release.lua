-- semaphore_release.lua: give permits back to a semaphore, or add some, and tell its waiters. Layout: see
-- semaphore_acquire.lua and semaphore_line.lua (before this file).
--
-- The first processes in line are woken, as many as the permits added (at most as many as are free), each on its
-- own channel and with a turn: the server runs no script for the other processes that wait. The new number of free permits is
-- announced on the shared channel too, for Redisson's waiters, marked with a leading zero when the line was woken
-- (hasp's processes in line pass a marked announcement by).
--
-- KEYS[1]  the semaphore's key
-- KEYS[2]  its channel, "redisson_sc:{<name>}"
-- KEYS[3]  its line, "hasp_semaphore_line:{<name>}"
-- KEYS[4]  the places in line, "hasp_semaphore_line_places:{<name>}"
-- KEYS[5]  the turns of woken processes, "hasp_semaphore_turns:{<name>}"
-- ARGV[1]  how many permits to add (may be negative: permits taken away)
-- ARGV[2]  the publish command: 'publish', or 'spublish' where messages travel on sharded channels
-- ARGV[3]  what the processes' own channels start with, "hasp_semaphore_wake__channel:{<name>}:"; '' where
--          processes take no place in line (the announcement on the shared channel wakes every waiting process)
--
-- Returns  the number of free permits afterwards.

local free = redis.call('incrby', KEYS[1], ARGV[1])
local added = tonumber(ARGV[1])
if ARGV[3] ~= '' and added > 0 and free > 0 then
    local count = math.min(added, free)
    local hops = math.max(0, redis.call('llen', KEYS[3]) - count)
    wake_line(KEYS[3], KEYS[4], KEYS[5], ARGV[3], ARGV[2], free .. ':' .. hops, count, nil)
    redis.call(ARGV[2], KEYS[2], '0' .. free)
else
    redis.call(ARGV[2], KEYS[2], free)
end
return free
