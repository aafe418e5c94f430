-- force_unlock.lua: free a lock whoever holds it, however many times. Runs after turns.lua.
--
-- KEYS[1]  the lock's hash
-- KEYS[2]  the lock's shared unlock channel, "redisson_lock__channel:{<name>}"
-- KEYS[3]  the line, "hasp_lock_line:{<name>}"
-- KEYS[4]  what the keys of the places in line start with, "hasp_lock_line_place:{<name>}" (turns.lua)
-- KEYS[5]  the turn, "hasp_lock_turn:{<name>}"
-- ARGV[1]  the message published when a lock was freed: "0" (wake one waiter)
-- ARGV[2]  the publish command: 'publish', or 'spublish' where unlock messages travel on
--          sharded channels (a Redis 7 cluster)
-- ARGV[3]  the turn's lease in milliseconds
-- ARGV[4]  what the turn channels of the lock start with, "hasp_lock_turn__channel:{<name>}:"
--
-- Returns  1 when a lock existed and was deleted (ARGV[1] published, the turn given to the first live process
--          in line), 0 when there was none.

if redis.call('del', KEYS[1]) == 1 then
    redis.call(ARGV[2], KEYS[2], ARGV[1])
    redis.call('del', KEYS[5])
    give_turn(KEYS[3], KEYS[4], KEYS[5], ARGV[2], ARGV[4], '', 'skip', ARGV[3])
    return 1
end
return 0
