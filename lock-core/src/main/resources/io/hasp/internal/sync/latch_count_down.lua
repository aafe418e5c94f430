-- latch_count_down.lua: count a count-down latch down by one; at zero the latch opens (its key goes) and its
-- waiters are told. Layout: see latch_set.lua.
--
-- KEYS[1]  the latch's key
-- KEYS[2]  its channel
-- ARGV[1]  the publish command: 'publish' or 'spublish'
--
-- Returns  the count afterwards (0 or below: the latch is open; below 0 when it was open already).

local count = redis.call('decr', KEYS[1])
if count <= 0 then
    redis.call('del', KEYS[1])
end
if count == 0 then
    redis.call(ARGV[1], KEYS[2], '0')
end
return count
