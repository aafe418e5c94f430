-- renew.lua: extend the leases of a batch of read/write lock holds of one client (the watchdog).
-- Layout: see read_acquire.lua.
--
-- KEYS[2i-1]  the i-th hold's lock hash (1 <= i <= n)
-- KEYS[2i]    the i-th hold's owner timeout key prefix,
--             "{<name>}:<clientId>:<holderId>:rwlock_timeout"
-- ARGV[1]     the new lease in milliseconds
-- ARGV[i+1]   the i-th hold's field: "<clientId>:<holderId>" for a read hold (its timeout keys
--             "<KEYS[2i]>:1..<count>" are renewed), "<clientId>:<holderId>:write" for a write hold
--
-- Returns     a string of n characters, one per hold in order: '1' when the owner still holds
--             it (its keys now live at least ARGV[1] ms; the hash is never shortened), '0' when
--             it no longer does (nothing touched).

local lease = tonumber(ARGV[1])
local outcome = {}
for i = 1, #KEYS / 2 do
    local hash = KEYS[2 * i - 1]
    local field = ARGV[i + 1]
    local count = tonumber(redis.call('hget', hash, field) or '0')
    if count > 0 then
        if string.sub(field, -6) ~= ':write' then
            for n = 1, count do
                redis.call('pexpire', KEYS[2 * i] .. ':' .. n, lease)
            end
        end
        if redis.call('pttl', hash) < lease then
            redis.call('pexpire', hash, lease)
        end
        outcome[i] = '1'
    else
        outcome[i] = '0'
    end
end
return table.concat(outcome)
