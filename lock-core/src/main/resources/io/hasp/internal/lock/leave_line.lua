-- leave_line.lua: a process whose client closes leaves the lock's line for good: its place goes (and with it its
-- heir; the line passes over its entry), and a
-- grant of the lock to one of its owners that it never took (it came as the client closed) is declined, so that
-- the lock goes on at once instead of when the grant's lease runs out. Runs after turns.lua.
--
-- KEYS[1]  the lock's hash
-- KEYS[2]  the lock's shared unlock channel, "redisson_lock__channel:{<name>}"
-- KEYS[3]  the line, "hasp_lock_line:{<name>}"
-- KEYS[4]  what the keys of the places in line start with, "hasp_lock_line_place:{<name>}" (turns.lua)
-- KEYS[5]  the turn, "hasp_lock_turn:{<name>}"
-- KEYS[6]  the grant, "hasp_lock_grant:{<name>}" (turns.lua, grants)
-- ARGV[1]  the message published when the lock becomes free: "0"
-- ARGV[2]  the leaving process (its hasp client id)
-- ARGV[3]  the publish command: 'publish' or 'spublish'
-- ARGV[4]  the turn's lease in milliseconds
-- ARGV[5]  what the turn channels of the lock start with, "hasp_lock_turn__channel:{<name>}:"
-- ARGV[6.. the owner fields of the process that hold the lock by its own count (a grant to one of them was taken:
--          that hold is the owner's, and stays until its lease runs out, as every hold of a closed client does)
--
-- Returns  1 when a grant was declined (the lock freed and given on), else 0.

local lock, grant = KEYS[1], KEYS[6]
local process = ARGV[2]
redis.call('del', place_of(KEYS[4], process))

local granted = redis.call('get', grant)
local to, field
if granted then
    to, field = string.match(granted, '^(%S+) %d+:%d+:(.+)$')
end
if to ~= process then
    return 0
end
for i = 6, #ARGV do
    if ARGV[i] == field then
        return 0
    end
end
if redis.call('hget', lock, field) ~= '1' then
    return 0
end
redis.call('del', lock, grant)
local listeners = redis.call(ARGV[3], KEYS[2], ARGV[1])
give_turn(KEYS[3], KEYS[4], KEYS[5], ARGV[3], ARGV[5], process, 'skip', ARGV[4],
        listeners == 0 and {lock = lock, grant = grant} or nil)
return 1
