-- rollback.lua: undo one acquisition whose caller gave up on it (deadline passed, cancelled)
-- while its outcome was unknown. Safe to send twice and harmless when the acquire never ran. Runs after
-- turns.lua.
--
-- KEYS[1]  the lock's hash
-- KEYS[2]  the lock's shared unlock channel, "redisson_lock__channel:{<name>}"
-- KEYS[3]  the line, "hasp_lock_line:{<name>}"
-- KEYS[4]  the places in line, "hasp_lock_line_places:{<name>}"
-- KEYS[5]  the turn, "hasp_lock_turn:{<name>}"
-- ARGV[1]  the message published when the lock becomes free: "0" (wake one waiter)
-- ARGV[2]  the owner field, "<clientId>:<holderId>"
-- ARGV[3]  the hold count the abandoned acquisition would have brought the owner to
-- ARGV[4]  lease in milliseconds to set when the owner still holds the lock afterwards
-- ARGV[5]  the publish command: 'publish', or 'spublish' where unlock messages travel on
--          sharded channels (a Redis 7 cluster)
-- ARGV[6]  the turn's lease in milliseconds
-- ARGV[7]  what the turn channels of the lock start with, "hasp_lock_turn__channel:{<name>}:"
--
-- Returns  1 when the acquisition had taken effect and was undone (the lock freed, ARGV[1] published and the
--          turn given on if that was the only hold), 0 when there was nothing to undo.

local held = redis.call('hget', KEYS[1], ARGV[2])
if not held or tonumber(held) ~= tonumber(ARGV[3]) then
    return 0
end

if tonumber(held) > 1 then
    redis.call('hincrby', KEYS[1], ARGV[2], -1)
    redis.call('pexpire', KEYS[1], ARGV[4])
    return 1
end

redis.call('del', KEYS[1])
redis.call(ARGV[5], KEYS[2], ARGV[1])
give_turn(KEYS[3], KEYS[4], KEYS[5], ARGV[5], ARGV[7], '', 'skip', ARGV[6])
return 1
