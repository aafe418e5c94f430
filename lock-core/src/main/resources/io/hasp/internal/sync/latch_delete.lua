-- latch_delete.lua: delete a count-down latch (it opens), telling its waiters to look again. Layout: see
-- latch_set.lua.
--
-- KEYS[1]  the latch's key
-- KEYS[2]  its channel
-- ARGV[1]  the publish command: 'publish' or 'spublish'
--
-- Returns  1 when there was a latch to delete, else 0.

if redis.call('del', KEYS[1]) == 1 then
    redis.call(ARGV[1], KEYS[2], '1')
    return 1
end
return 0
