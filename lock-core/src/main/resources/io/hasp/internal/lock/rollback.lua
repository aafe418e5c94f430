-- rollback.lua: undo one acquisition whose caller gave up on it (deadline passed, cancelled)
-- while its outcome was unknown. Safe to send twice and harmless when the acquire never ran. Runs after
-- turns.lua.
--
-- KEYS[1]  the lock's hash
-- KEYS[2]  the lock's shared unlock channel, "redisson_lock__channel:{<name>}"
-- KEYS[3]  the line, "hasp_lock_line:{<name>}"
-- KEYS[4]  what the keys of the places in line start with, "hasp_lock_line_place:{<name>}" (turns.lua)
-- KEYS[5]  the turn, "hasp_lock_turn:{<name>}"
-- KEYS[6]  the grant, "hasp_lock_grant:{<name>}" (turns.lua, grants)
-- ARGV[1]  the message published when the lock becomes free: "0" (wake one waiter)
-- ARGV[2]  the owner field, "<clientId>:<holderId>"
-- ARGV[3]  the hold count the abandoned acquisition would have brought the owner to
-- ARGV[4]  lease in milliseconds to set when the owner still holds the lock afterwards
-- ARGV[5]  the publish command: 'publish', or 'spublish' where unlock messages travel on
--          sharded channels (a Redis 7 cluster)
-- ARGV[6]  the turn's lease in milliseconds
-- ARGV[7]  what the turn channels of the lock start with, "hasp_lock_turn__channel:{<name>}:"
-- ARGV[8]  the abandoning process (its hasp client id)
-- ARGV[9]  an heir of the process, "<stamp>:<lease ms>:<owner field>" (turns.lua, grants), or '': it stops being the
--          process's heir, and a grant of the lock to it that nobody took is declined (the lock freed, and the turn or
--          a grant given on). A decline finds the grant consumed once the owner's acquire took it as its own.
-- ARGV[10] with ARGV[9]: the owner field of another waiter of the process to hand a declined grant to instead of
--          freeing the lock, or ''
-- ARGV[11] with ARGV[10]: that waiter's lease in milliseconds
--
-- Returns  1 when the acquisition had taken effect and was undone (the lock freed, ARGV[1] published and the
--          turn given on if that was the only hold), or a declined grant freed it; 2 when a declined grant went to
--          the waiter ARGV[10] (one hold, lease ARGV[11]); 0 when there was nothing to undo.

local grants = {lock = KEYS[1], grant = KEYS[6]}

-- Frees the lock, announces it, and gives the turn on (or grants the lock, when nobody listens on the shared channel).
local function free()
    redis.call('del', KEYS[1], grants.grant)
    local listeners = redis.call(ARGV[5], KEYS[2], ARGV[1])
    give_turn(KEYS[3], KEYS[4], KEYS[5], ARGV[5], ARGV[7], '', 'skip', ARGV[6], listeners == 0 and grants or nil)
end

local heir = ARGV[9] or ''
if heir ~= '' then
    local place = place_of(KEYS[4], ARGV[8])
    if redis.call('get', place) == heir then
        redis.call('set', place, '', 'keepttl')
    end
    if redis.call('get', grants.grant) == ARGV[8] .. ' ' .. heir then
        redis.call('del', grants.grant)
        if redis.call('hget', KEYS[1], ARGV[2]) == '1' then
            if (ARGV[10] or '') ~= '' then
                redis.call('del', KEYS[1])
                redis.call('hset', KEYS[1], ARGV[10], 1)
                redis.call('pexpire', KEYS[1], ARGV[11])
                return 2
            end
            free()
            return 1
        end
    end
end

local held = redis.call('hget', KEYS[1], ARGV[2])
if not held or tonumber(held) ~= tonumber(ARGV[3]) then
    return 0
end

if tonumber(held) > 1 then
    redis.call('hincrby', KEYS[1], ARGV[2], -1)
    redis.call('pexpire', KEYS[1], ARGV[4])
    return 1
end

free()
return 1
