-- semaphore_release.lua: give permits back to a semaphore, or add some, and tell its waiters. Layout: see
-- semaphore_acquire.lua and semaphore_line.lua (before this file).
--
-- When anyone but the hasp processes in line listens on the shared channel (Redisson's waiters), the new number of
-- free permits is announced there, as Redisson's release does, and every listening process looks. Else only the
-- first processes in line are woken, as many as the permits added (at most as many as are free), each on its own
-- channel: the server's work per release does not grow with the number of processes that wait.
--
-- KEYS[1]  the semaphore's key
-- KEYS[2]  its channel, "redisson_sc:{<name>}"
-- KEYS[3]  its line, "hasp_semaphore_line:{<name>}"
-- KEYS[4]  the places in line, "hasp_semaphore_line_places:{<name>}"
-- ARGV[1]  how many permits to add (may be negative: permits taken away)
-- ARGV[2]  the publish command: 'publish', or 'spublish' where messages travel on sharded channels
-- ARGV[3]  what the processes' own channels start with, "hasp_semaphore_wake__channel:{<name>}:"; '' where
--          processes take no place in line (every release is announced on the shared channel)
-- ARGV[4]  the command that counts a channel's listeners: 'numsub', or 'shardnumsub' for sharded channels
--
-- Returns  the number of free permits afterwards.

local free = redis.call('incrby', KEYS[1], ARGV[1])
if ARGV[3] == '' or others_listen(KEYS[2], KEYS[4], ARGV[3], ARGV[4]) then
    redis.call(ARGV[2], KEYS[2], free)
    return free
end
local added = tonumber(ARGV[1])
if added > 0 and free > 0 then
    local count = math.min(added, free)
    local hops = math.max(0, redis.call('llen', KEYS[3]) - count)
    wake_line(KEYS[3], KEYS[4], ARGV[3], ARGV[2], free .. ':' .. hops, count, nil)
end
return free
