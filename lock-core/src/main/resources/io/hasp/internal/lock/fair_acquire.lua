-- fair_acquire.lua: take or re-enter the fair lock, or wait in line; safe to send twice. Runs after
-- fair_queue.lua (its KEYS, ARGV[1..4] and helpers).
--
-- The lock goes to the caller when it is free and the queue is empty or the caller heads it. Otherwise the
-- caller waits in line: enqueued at the tail the first time (a re-sent request finds itself there and is not
-- enqueued twice), its place lease renewed each time.
--
-- ARGV[5]  lease in milliseconds: the lock's PEXPIRE once the owner holds it
-- ARGV[6]  the hold count this request brings the owner to (the caller's count + 1)
-- ARGV[7]  '1' when the caller waits for the lock; '0' for a single try, which takes no place in line (and
--          leaves the place of the same owner's waiting request, if any, as it is)
--
-- Returns  nil when the owner holds the lock after the call; the status LOST when a re-entry (ARGV[6] above 1)
--          finds no hold of the owner (see acquire.lua); otherwise how long the caller may park before it
--          looks again, in milliseconds: until it is woken, at most a third of the place lease, at most the
--          holder's remaining lease when the caller heads the queue.

local lease, target = ARGV[5], tonumber(ARGV[6])
local held = redis.call('hget', lock, owner)
if not held and target > 1 then
    return redis.status_reply('LOST')
end
if held then
    if tonumber(held) < target then
        redis.call('hincrby', lock, owner, 1)
    end
    redis.call('pexpire', lock, lease)
    return nil
end

local head = redis.call('lindex', queue, 0)
if redis.call('exists', lock) == 0 and (not head or head == owner) then
    if head then
        redis.call('lpop', queue)
    end
    redis.call('zrem', deadlines, owner)
    redis.call('zrem', places, owner)
    -- Redisson's grant: every waiter left is one step nearer its turn.
    local waiting = redis.call('zrange', deadlines, 0, -1)
    for i = 1, #waiting do
        redis.call('zincrby', deadlines, -step_millis, waiting[i])
    end
    redis.call('hincrby', lock, owner, 1)
    redis.call('pexpire', lock, lease)
    expire_queue()
    return nil
end

local park = math.max(1, math.floor(place_millis / 3))
if ARGV[7] == '0' then
    return park
end

local at = redis.call('lpos', queue, owner)
if at then
    -- Still in line: keep Redisson's deadline ahead of the grants that come before this waiter's turn.
    redis.call('zadd', deadlines, 'GT', now + (at + 1) * step_millis, owner)
else
    local last = redis.call('lindex', queue, -1)
    local after = last and redis.call('zscore', deadlines, last)
    local from = after and tonumber(after) or now + math.max(0, redis.call('pttl', lock))
    redis.call('zadd', deadlines, from + step_millis, owner)
    redis.call('rpush', queue, owner)
    at = redis.call('llen', queue) - 1
end
redis.call('zadd', places, now + place_millis, owner)
expire_queue()

if at == 0 then
    local ttl = redis.call('pttl', lock)
    if ttl >= 0 and ttl < park then
        park = math.max(1, ttl)
    end
end
return park
