-- fair_unlock.lua: give back one hold of the fair lock; safe to send twice. Runs after fair_queue.lua (its
-- KEYS, ARGV[1..4] and helpers). When the lock becomes free, only the head of the queue is woken.
--
-- KEYS[6]  this request's unlock latch, "redisson_unlock_latch:{<name>}:<requestId>" (see unlock.lua)
-- ARGV[5]  lease in milliseconds to set when the owner still holds the lock afterwards
-- ARGV[6]  how long the latch lives, in milliseconds
--
-- Returns  nil when the owner does not hold the lock (nothing changed); 0 when the owner still holds it;
--          1 when the lock was freed (the head of the queue woken).

local latch = KEYS[6]
local earlier = redis.call('get', latch)   -- every send: a re-send may have run before this one
if earlier then
    return tonumber(earlier)
end
local count = redis.call('hget', lock, owner)
if not count then
    return nil
end
if tonumber(count) > 1 then
    redis.call('hincrby', lock, owner, -1)
    redis.call('pexpire', lock, ARGV[5])
    redis.call('set', latch, 0, 'px', ARGV[6])
    return 0
end
redis.call('del', lock)
redis.call('set', latch, 1, 'px', ARGV[6])
wake_head()
return 1
