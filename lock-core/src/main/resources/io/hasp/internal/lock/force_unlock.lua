-- force_unlock.lua: free a lock whoever holds it, however many times.
--
-- KEYS[1]  the lock's hash
-- KEYS[2]  the lock's unlock channel, "redisson_lock__channel:{<name>}"
-- ARGV[1]  the message published when a lock was freed: "0" (wake one waiter)
-- ARGV[2]  the publish command: 'publish', or 'spublish' where unlock messages travel on
--          sharded channels (a Redis 7 cluster)
--
-- Returns  1 when a lock existed and was deleted (and ARGV[1] published), 0 when there was none.

if redis.call('del', KEYS[1]) == 1 then
    redis.call(ARGV[2], KEYS[2], ARGV[1])
    return 1
end
return 0
