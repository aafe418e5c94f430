-- renew.lua: extend the leases of a batch of locks that one client holds (the watchdog).
--
-- KEYS[i]    the i-th lock's hash (1 <= i <= n)
-- ARGV[1]    the new lease in milliseconds
-- ARGV[i+1]  the owner field expected in KEYS[i], "<clientId>:<holderId>"
--
-- Returns    a string of n characters, one per key in order: '1' when the owner still held
--            the lock and its lease was reset to ARGV[1], '0' when it no longer holds it (the
--            key is then left untouched).

local outcome = {}
for i = 1, #KEYS do
    if redis.call('hexists', KEYS[i], ARGV[i + 1]) == 1 then
        redis.call('pexpire', KEYS[i], ARGV[1])
        outcome[i] = '1'
    else
        outcome[i] = '0'
    end
end
return table.concat(outcome)
