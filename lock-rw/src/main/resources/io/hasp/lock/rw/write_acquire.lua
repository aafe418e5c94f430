-- write_acquire.lua: take or re-enter the write lock of a read/write lock for one owner; safe to
-- send twice. Layout: see read_acquire.lua.
--
-- KEYS[1]  the lock's hash
-- KEYS[2]  this owner's read timeout key prefix, "{<name>}:<clientId>:<holderId>:rwlock_timeout"
-- ARGV[1]  lease in milliseconds
-- ARGV[2]  the owner's write field, "<clientId>:<holderId>:write"
-- ARGV[3]  the owner's read field, "<clientId>:<holderId>"
-- ARGV[4]  the write hold count this request brings the owner to (its count + 1); a re-sent
--          request that finds the count reached adds nothing
--
-- Returns  nil when the owner holds the write lock after the call; the status LOST when a re-entry
--          (ARGV[4] above 1) finds no write hold of the owner (see read_acquire.lua); -3 when the lock is in read
--          mode and the owner itself has a live read hold (an upgrade: it would wait for itself
--          forever, so it is refused); otherwise the lock's remaining time to live in
--          milliseconds (PTTL; -1 when the holder set no expiry).

if tonumber(ARGV[4]) > 1 and redis.call('hexists', KEYS[1], ARGV[2]) == 0 then
    return redis.status_reply('LOST')
end
local lease = tonumber(ARGV[1])
local mode = redis.call('hget', KEYS[1], 'mode')
if not mode then
    redis.call('hset', KEYS[1], 'mode', 'write')
    redis.call('hset', KEYS[1], ARGV[2], 1)
    redis.call('pexpire', KEYS[1], lease)
    return nil
end

if mode == 'write' then
    local count = tonumber(redis.call('hget', KEYS[1], ARGV[2]) or '0')
    if count == 0 then
        return redis.call('pttl', KEYS[1])
    end
    if count < tonumber(ARGV[4]) then
        redis.call('hincrby', KEYS[1], ARGV[2], 1)
    end
    if redis.call('pttl', KEYS[1]) < lease then
        redis.call('pexpire', KEYS[1], lease)
    end
    return nil
end

-- Read mode: refuse an upgrade, i.e. a live read hold of this very owner.
local reads = tonumber(redis.call('hget', KEYS[1], ARGV[3]) or '0')
for n = 1, reads do
    if redis.call('exists', KEYS[2] .. ':' .. n) == 1 then
        return -3
    end
end
return redis.call('pttl', KEYS[1])
