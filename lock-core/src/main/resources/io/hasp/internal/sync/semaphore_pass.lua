-- semaphore_pass.lua: a process woken by a release, none of whose waiters fit in the free permits (or that has no
-- waiter left), passes the wake on to the next process in line. Layout: see semaphore_acquire.lua and
-- semaphore_line.lua (before this file).
--
-- KEYS[1]  the semaphore's key
-- KEYS[2]  its line, "hasp_semaphore_line:{<name>}"
-- KEYS[3]  the places in line, "hasp_semaphore_line_places:{<name>}"
-- KEYS[4]  the turns of woken processes, "hasp_semaphore_turns:{<name>}"
-- ARGV[1]  the passing process
-- ARGV[2]  how many more processes the wake may visit (its message's hops), at least 1
-- ARGV[3]  the publish command: 'publish' or 'spublish'
-- ARGV[4]  what the processes' own channels start with, "hasp_semaphore_wake__channel:{<name>}:"
--
-- Returns  1 when another process was woken, 0 when nobody was (no free permit, no hop left, nobody else in line).

redis.call('zrem', KEYS[4], ARGV[1])   -- the passing process's turn ends
local hops = tonumber(ARGV[2])
local free = tonumber(redis.call('get', KEYS[1]) or '0')
if hops < 1 or free < 1 then
    return 0
end
return wake_line(KEYS[2], KEYS[3], KEYS[4], ARGV[4], ARGV[3], free .. ':' .. (hops - 1), 1, ARGV[1])
