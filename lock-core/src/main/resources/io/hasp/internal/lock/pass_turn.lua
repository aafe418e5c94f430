-- pass_turn.lua: a process that was given the turn of a lock has nobody waiting for it any more (its waiters gave
-- up or took the lock another way): it passes the turn on. Runs after turns.lua.
--
-- KEYS[1]  the lock's hash
-- KEYS[2]  the line, "hasp_lock_line:{<name>}"
-- KEYS[3]  what the keys of the places in line start with, "hasp_lock_line_place:{<name>}" (turns.lua)
-- KEYS[4]  the turn, "hasp_lock_turn:{<name>}"
-- ARGV[1]  the passing process (its hasp client id)
-- ARGV[2]  the publish command: 'publish' or 'spublish'
-- ARGV[3]  the turn's lease in milliseconds
-- ARGV[4]  what the turn channels of the lock start with, "hasp_lock_turn__channel:{<name>}:"
--
-- Returns  1 when the turn went on to the next live process in line (or to nobody), 0 when the passing process
--          did not have the turn (any more), or the lock is held (its release gives the next turn).

local lock, line, places, turn = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
if redis.call('get', turn) ~= ARGV[1] then
    return 0
end
redis.call('del', turn)
if redis.call('exists', lock) == 1 then
    return 0
end
give_turn(line, places, turn, ARGV[2], ARGV[4], ARGV[1], 'skip', ARGV[3])
return 1
