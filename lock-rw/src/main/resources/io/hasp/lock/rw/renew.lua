-- renew.lua: extend the leases of a batch of read/write lock holds of one client (the watchdog).
-- Layout: see read_acquire.lua.
--
-- keys[2i-1]  the i-th hold's lock hash (1 <= i <= n)
-- keys[2i]    the i-th hold's owner timeout key prefix,
--             "{<name>}:<clientId>:<holderId>:rwlock_timeout"
-- args[1]     the new lease in milliseconds
-- args[i+1]   the i-th hold's field: "<clientId>:<holderId>" for a read hold (its timeout keys
--             "<keys[2i]>:1..<count>" are renewed), "<clientId>:<holderId>:write" for a write hold
--
-- Returns     a string of n characters, one per hold in order: '1' when the owner still holds
--             it (its keys now live at least args[1] ms; the hash is never shortened), '0' when
--             it no longer does (nothing touched).

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

local lease = tonumber(args[1])
local outcome = {}
for i = 1, #keys / 2 do
    local hash = keys[2 * i - 1]
    local field = args[i + 1]
    local count = tonumber(redis.call('hget', hash, field) or '0')
    if count > 0 then
        if string.sub(field, -6) ~= ':write' then
            for n = 1, count do
                redis.call('pexpire', keys[2 * i] .. ':' .. n, lease)
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
