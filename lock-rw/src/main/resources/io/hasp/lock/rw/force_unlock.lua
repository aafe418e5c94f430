-- force_unlock.lua: free a read/write lock held in one mode, whoever holds it, and give the turn to the first
-- process in the writers' line. Runs after turns.lua. Layout: see read_acquire.lua.
--
-- KEYS[1]  the lock's hash
-- KEYS[2]  the lock's channel, "redisson_rwlock:{<name>}"
-- KEYS[3]  the lock's hash tag, "{<name>}": every holder's timeout keys are
--          "<KEYS[3]>:<field>:rwlock_timeout:<n>"
-- KEYS[4]  the line of processes waiting for the write lock, "hasp_rwlock_line:{<name>}"
-- KEYS[5]  what the keys of their places start with, "hasp_rwlock_line_place:{<name>}" (turns.lua)
-- KEYS[6]  the turn, "hasp_rwlock_turn:{<name>}"
-- ARGV[1]  the mode the lock must be in: 'read' or 'write'
-- ARGV[2]  the message published when it was freed: "1" (wake all waiters)
-- ARGV[3]  the publish command: 'publish', or 'spublish' where unlock messages travel on
--          sharded channels (a Redis 7 cluster)
-- ARGV[4]  the turn's lease in milliseconds
-- ARGV[5]  what the lock's turn channels start with, "hasp_rwlock_turn__channel:{<name>}:"
--
-- Returns  1 when the lock was in mode ARGV[1] and was deleted with its read timeout keys (and
--          ARGV[2] published), 0 when it was not in that mode (nothing changed).

if redis.call('hget', KEYS[1], 'mode') ~= ARGV[1] then
    return 0
end
for _, field in ipairs(redis.call('hkeys', KEYS[1])) do
    local holds = tonumber(redis.call('hget', KEYS[1], field))
    if holds and string.sub(field, -6) ~= ':write' then
        for n = 1, holds do
            redis.call('del', KEYS[3] .. ':' .. field .. ':rwlock_timeout:' .. n)
        end
    end
end
redis.call('del', KEYS[1])
redis.call(ARGV[3], KEYS[2], ARGV[2])
redis.call('del', KEYS[6])
give_turn(KEYS[4], KEYS[5], KEYS[6], ARGV[3], ARGV[5], '', 'skip', ARGV[4])
return 1
