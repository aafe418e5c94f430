-- renew.lua: extend the leases of a batch of locks that one client holds (the watchdog).
--
-- keys[i]    the i-th lock's hash (1 <= i <= n)
-- args[1]    the new lease in milliseconds
-- args[i+1]  the owner field expected in keys[i], "<clientId>:<holderId>"
--
-- Returns    a string of n characters, one per key in order: '1' when the owner still held
--            the lock and its lease was reset to args[1], '0' when it no longer holds it (the
--            key is then left untouched).

-- Keys come declared in KEYS, or, in a batch that spans several slots of one cluster node (where
-- declared keys must share a slot), undeclared: ARGV[1] is their number k, ARGV[2..k+1] the keys,
-- and the arguments below follow them.
local keys, args = KEYS, ARGV
if #KEYS == 0 then
    local k = tonumber(ARGV[1])
    keys, args = {}, {}
    for i = 1, k do
        keys[i] = ARGV[i + 1]
    end
    for i = k + 2, #ARGV do
        args[#args + 1] = ARGV[i]
    end
end

local outcome = {}
for i = 1, #keys do
    if redis.call('hexists', keys[i], args[i + 1]) == 1 then
        redis.call('pexpire', keys[i], args[1])
        outcome[i] = '1'
    else
        outcome[i] = '0'
    end
end
return table.concat(outcome)
