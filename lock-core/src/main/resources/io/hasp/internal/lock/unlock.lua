-- unlock.lua: give back one hold of a reentrant lock; safe to send twice. Runs after turns.lua (the line of
-- waiting processes and its helpers).
--
-- KEYS[1]  the lock's hash (owner field -> hold count)
-- KEYS[2]  the lock's shared unlock channel, "redisson_lock__channel:{<name>}", where Redisson's waiters (and hasp
--          waiters behind a holder that does not take turns) listen
-- KEYS[3]  this request's unlock latch, "redisson_unlock_latch:{<name>}:<requestId>": it records
--          the outcome so that the same request sent again (after a timeout or a lost reply)
--          answers what the first send did instead of failing for the real owner
-- KEYS[4]  the line, "hasp_lock_line:{<name>}"
-- KEYS[5]  what the keys of the places in line start with, "hasp_lock_line_place:{<name>}" (turns.lua)
-- KEYS[6]  the turn, "hasp_lock_turn:{<name>}"
-- KEYS[7]  the grant, "hasp_lock_grant:{<name>}" (turns.lua, grants)
-- ARGV[1]  the message published when the lock becomes free: "0" (wake one waiter)
-- ARGV[2]  lease in milliseconds to set when the owner still holds the lock afterwards
-- ARGV[3]  the owner field, "<clientId>:<holderId>"
-- ARGV[4]  how long the latch lives, in milliseconds (longer than the caller's retry budget)
-- ARGV[5]  the publish command: 'publish', or 'spublish' where unlock messages travel on
--          sharded channels (a Redis 7 cluster)
-- ARGV[6]  the owner field of a waiter of the same process to hand the lock to when this owner's last hold
--          ends ("": free the lock for everyone)
-- ARGV[7]  with ARGV[6]: that waiter's lease in milliseconds
-- ARGV[8]  the releasing process (its hasp client id)
-- ARGV[9]  whether the releasing process keeps a place in line: '2' when other waiters of it go on waiting (it
--          stands at the end of the line before the turn is given, so the turn may be its own); '1' when its
--          acquisitions are expected back (it stands at the end of the line when the turn went to another process,
--          and nobody listens on the shared channel); '0' no
-- ARGV[10] the place lease in milliseconds
-- ARGV[11] the turn's lease in milliseconds
-- ARGV[12] what the turn channels of the lock start with, "hasp_lock_turn__channel:{<name>}:"
-- ARGV[13] '1' when the releasing process itself listens on the shared channel (it is then not counted among
--          the others who listen there), else '0'
-- ARGV[14] with ARGV[9] '1': the releasing process's heir when it keeps its place, "<stamp>:<lease ms>:<owner field>"
--          (turns.lua, grants), or ''
--
-- Returns  nil when the owner does not hold the lock (nothing changed); 0 when the owner still
--          holds it (count decremented, lease reset to ARGV[2]); 2 when it was handed over: the hash now
--          holds only ARGV[6] with one hold and lease ARGV[7], and nothing is published (the lock was never
--          free, so no waiter anywhere has anything to look at). Otherwise the lock was freed: ARGV[1] is
--          published on KEYS[2] and the turn goes to the first live process in line; then 3 when someone listens
--          on the shared channel besides the releasing process (a client that does not take turns may be waiting: the releasing process lets it
--          have its go, and a turn of its own comes as a message like any other's); else 5 when the turn went to
--          another process (or the lock was granted to its heir), 4 when it went to the releasing process itself
--          without a message (which wakes one of its own waiters), 1 when nobody waits in line. A hand-over or a grant
--          is not made while another process listens on the shared channel: the lock is freed instead.
--
-- Every send reads the latch first, the first one too: a re-send travels on another connection and may
-- run before it, and the first send must then answer what the re-send did instead of giving back a
-- second hold. Server work on the common path, the last hold given back with nobody waiting: GET (the latch),
-- HGET, DEL, the publish, LPOP (an empty line) and the latch's SET. The latch cannot be left out: once the hash
-- is deleted (Redisson's free lock is no key at all), it is the only record that this request freed it rather
-- than finding it gone.

local lock, channel, latch, line, places, turn = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local grants = {lock = lock, grant = KEYS[7]}
local publish, successor, process = ARGV[5], ARGV[6], ARGV[8]
local own_listener = tonumber(ARGV[13])

local earlier = redis.call('get', latch)
if earlier then
    return tonumber(earlier)
end

local count = redis.call('hget', lock, ARGV[3])
if not count then
    return nil
end

if tonumber(count) > 1 then
    redis.call('hincrby', lock, ARGV[3], -1)
    redis.call('pexpire', lock, ARGV[2])
    redis.call('set', latch, 0, 'px', ARGV[4])
    return 0
end

redis.call('del', lock, grants.grant)
if successor ~= '' then
    local numsub = publish == 'spublish' and 'shardnumsub' or 'numsub'
    if redis.call('pubsub', numsub, channel)[2] - own_listener <= 0 then
        redis.call('hset', lock, successor, 1)
        redis.call('pexpire', lock, ARGV[7])
        redis.call('set', latch, 2, 'px', ARGV[4])
        return 2
    end
end

local outcome = announce_free(line, places, turn, publish, channel, ARGV[1], process, ARGV[9], tonumber(ARGV[10]),
        ARGV[11], ARGV[12], own_listener, grants, ARGV[14]) or 1
redis.call('set', latch, outcome, 'px', ARGV[4])
return outcome
