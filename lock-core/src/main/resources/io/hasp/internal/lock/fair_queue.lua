-- fair_queue.lua: the opening every script of the fair lock shares (fair_acquire.lua, fair_unlock.lua,
-- fair_rollback.lua, fair_force_unlock.lua are appended to it and run as one script).
--
-- Layout (shared with Redisson 4.x's RFairLock, plus one key of hasp's own):
--   the lock       the reentrant lock's hash: owner field "<clientId>:<holderId>" -> hold count, PEXPIRE = lease
--   the queue      a list of waiting owner fields, first come first served
--   the deadlines  a sorted set, waiting owner -> Redisson's deadline in epoch milliseconds: a waiter that
--                  reaches the head of the queue past its deadline is dropped. Redisson computes it on its
--                  clients' clocks as the previous waiter's deadline plus its fairLockWaitTimeout, takes that
--                  step off every deadline at each grant and off the waiters behind one that gives up.
--   the places     hasp's own sorted set, waiting hasp owner -> the end of its place lease in the server's
--                  milliseconds. A hasp waiter renews it each time it looks at the lock (at least every third
--                  of the lease); a waiter that stopped (crashed, killed, cut off) is dropped once it ends,
--                  wherever it stands in the queue. Redisson's deadline does not drop a waiter that has a place.
-- The three queue keys expire when nobody has used them for a while (see expire_queue).
--
-- KEYS[1]  the lock's hash
-- KEYS[2]  the queue, "redisson_lock_queue:{<name>}"
-- KEYS[3]  the deadlines, "redisson_lock_timeout:{<name>}"
-- KEYS[4]  the places, "hasp_lock_places:{<name>}"
-- KEYS[5]  the unlock channel, "redisson_lock__channel:{<name>}": a waiter listens on "<KEYS[5]>:<its owner field>",
--          and only the head of the queue is woken, with the message "0"
-- ARGV[1]  the calling owner's field, "<clientId>:<holderId>"
-- ARGV[2]  the place lease in milliseconds
-- ARGV[3]  Redisson's deadline step in milliseconds (its fairLockWaitTimeout)
-- ARGV[4]  the publish command: 'publish', or 'spublish' where unlock messages travel on sharded channels

local lock, queue, deadlines, places, channel = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local owner, place_millis, step_millis, publish = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
local clock = redis.call('time')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)

-- Wakes the head of the queue, if any, on its own channel.
local function wake_head()
    local head = redis.call('lindex', queue, 0)
    if head then
        redis.call(publish, channel .. ':' .. head, '0')
    end
end

-- Takes a waiter out of the queue, as Redisson does when one gives up: the waiters behind it are one step
-- nearer their turn. Returns whether it was in the queue.
local function leave(waiter)
    local at = redis.call('lpos', queue, waiter)
    if not at then
        redis.call('zrem', deadlines, waiter)
        redis.call('zrem', places, waiter)
        return false
    end
    local behind = redis.call('lrange', queue, at + 1, -1)
    for i = 1, #behind do
        redis.call('zincrby', deadlines, -step_millis, behind[i])
    end
    redis.call('lrem', queue, 0, waiter)
    redis.call('zrem', deadlines, waiter)
    redis.call('zrem', places, waiter)
    return true
end

-- Keeps the queue keys for as long as a waiter may still come back to them: twice the place lease, or past
-- the latest Redisson deadline. Deletes leftovers of a queue that emptied.
local function expire_queue()
    if redis.call('exists', queue) == 0 then
        redis.call('del', deadlines, places)
        return
    end
    local ttl = 2 * place_millis
    local latest = redis.call('zrange', deadlines, -1, -1, 'withscores')
    if latest[2] then
        ttl = math.max(ttl, math.floor(tonumber(latest[2]) - now) + place_millis)
    end
    redis.call('pexpire', queue, ttl)
    redis.call('pexpire', deadlines, ttl)
    redis.call('pexpire', places, ttl)
end

-- Drops the waiters that stopped: hasp waiters whose place lease ended, anywhere in the queue; at the head,
-- waiters without a place (Redisson's) past their deadline, or with no deadline at all. A new head of a free
-- lock is woken.
local head_before = redis.call('lindex', queue, 0)
local lapsed = redis.call('zrangebyscore', places, '-inf', now)
for i = 1, #lapsed do
    redis.call('lrem', queue, 0, lapsed[i])
    redis.call('zrem', deadlines, lapsed[i])
    redis.call('zrem', places, lapsed[i])
end
while true do
    local head = redis.call('lindex', queue, 0)
    if not head or redis.call('zscore', places, head) then
        break
    end
    local deadline = redis.call('zscore', deadlines, head)
    if deadline and tonumber(deadline) > now then
        break
    end
    redis.call('lpop', queue)
    redis.call('zrem', deadlines, head)
end
if head_before and redis.call('lindex', queue, 0) ~= head_before and redis.call('exists', lock) == 0 then
    wake_head()
end
