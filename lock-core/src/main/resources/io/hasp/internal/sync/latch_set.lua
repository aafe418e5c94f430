-- latch_set.lua: set a count-down latch's count when it has none, and tell its waiters.
--
-- Layout (shared with Redisson 4.x's RCountDownLatch): the count is a decimal number at the latch's name; no key
-- means the latch is open (its count is zero). Waiters listen on "redisson_countdownlatch__channel__{<name>}": the
-- message "0" says the count reached zero, "1" that a new count was set or the latch deleted.
--
-- KEYS[1]  the latch's key
-- KEYS[2]  its channel
-- ARGV[1]  the count, at least 1
-- ARGV[2]  the publish command: 'publish', or 'spublish' where messages travel on sharded channels
--
-- Returns  1 when the count was set, 0 when the latch had a count already (nothing changed).

if redis.call('exists', KEYS[1]) == 1 then
    return 0
end
redis.call('set', KEYS[1], ARGV[1])
redis.call(ARGV[2], KEYS[2], '1')
return 1
