-- inspect.lua: what Redis holds for one name, read in one round trip for LockInspector.inspect. It writes nothing.
--
-- KEYS[1]   the name: a lock's hash, or a synchronizer's number
-- KEYS[2]   the fenced lock's token counter, "redisson_lock_token:{<name>}"
-- KEYS[3]   the fair lock's queue, "redisson_lock_queue:{<name>}"
-- KEYS[4]   the fair lock's deadlines, "redisson_lock_timeout:{<name>}"
-- KEYS[5]   the fair lock's places, "hasp_lock_places:{<name>}"
-- KEYS[6]   the line of processes waiting for the lock, "hasp_lock_line:{<name>}", and KEYS[7] its turn
-- KEYS[8]   the line of processes waiting for the read/write lock, "hasp_rwlock_line:{<name>}", and KEYS[9] its turn
-- KEYS[10]  the permit-expirable semaphore's leases, "{<name>}:timeout"
-- ARGV[1]   the read/write lock's hash tag, "{<name>}": read hold n of owner o has the timeout key
--           "<ARGV[1]>:<o>:rwlock_timeout:<n>"
-- ARGV[2]   what the lock's turn channels start with, "hasp_lock_turn__channel:{<name>}:" (a process in the line
--           listens on "<ARGV[2]><client id>"), and ARGV[3] the same for the read/write lock's line
-- ARGV[4..] channels whose subscribers are counted (classic and sharded)
--
-- The reply, a flat array of strings:
--   the server's clock in epoch milliseconds, the name's type, its PTTL,
--   the hash: n, then n field/value pairs (n is 0 unless the name is a hash),
--   the number: the value, or "" unless the name is a string,
--   the fencing token counter, or "",
--   the fair queue: n, then n triples of owner, Redisson's deadline (or ""), hasp's place end (or ""),
--   the lock's line: n, then n client ids, the turn (or ""), the subscribers of their turn channels; the same for
--   the read/write lock's line,
--   the read holds: n, then n pairs of owner field and the longest PTTL of its timeout keys,
--   the leased permits of a permit-expirable semaphore,
--   the subscribers of each ARGV[4..] channel.

local out = {}
local function put(value)
    out[#out + 1] = value == nil and '' or tostring(value)
end

local function subscribers(channel)
    local count = redis.call('pubsub', 'numsub', channel)[2]
    local sharded = redis.pcall('pubsub', 'shardnumsub', channel)   -- an error before Redis 7.0: none
    if type(sharded) == 'table' and sharded[2] ~= nil then
        count = count + sharded[2]
    end
    return count
end

local clock = redis.call('time')
put(tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000))
local kind = redis.call('type', KEYS[1])['ok']
put(kind)
put(redis.call('pttl', KEYS[1]))

local fields = {}
if kind == 'hash' then
    fields = redis.call('hgetall', KEYS[1])
end
put(#fields / 2)
for i = 1, #fields do
    put(fields[i])
end

if kind == 'string' then
    put(redis.call('get', KEYS[1]))
else
    put(nil)
end
put(redis.call('get', KEYS[2]) or nil)

local queue = redis.call('lrange', KEYS[3], 0, -1)
put(#queue)
for _, owner in ipairs(queue) do
    put(owner)
    put(redis.call('zscore', KEYS[4], owner) or nil)
    put(redis.call('zscore', KEYS[5], owner) or nil)
end

for _, line in ipairs({ { KEYS[6], KEYS[7], ARGV[2] }, { KEYS[8], KEYS[9], ARGV[3] } }) do
    local members = redis.call('lrange', line[1], 0, -1)
    put(#members)
    local listening = 0
    for _, member in ipairs(members) do
        put(member)
        listening = listening + subscribers(line[3] .. member)
    end
    put(redis.call('get', line[2]) or nil)
    put(listening)
end

local reads = {}
local mode = nil
for i = 1, #fields, 2 do
    if fields[i] == 'mode' then
        mode = fields[i + 1]
    end
end
if mode ~= nil then
    for i = 1, #fields, 2 do
        local field = fields[i]
        if field ~= 'mode' and string.sub(field, -6) ~= ':write' then
            local longest = -2
            for n = 1, tonumber(fields[i + 1]) or 0 do
                longest = math.max(longest, redis.call('pttl', ARGV[1] .. ':' .. field .. ':rwlock_timeout:' .. n))
            end
            reads[#reads + 1] = field
            reads[#reads + 1] = longest
        end
    end
end
put(#reads / 2)
for _, value in ipairs(reads) do
    put(value)
end

put(redis.call('zcard', KEYS[10]))

for i = 4, #ARGV do
    put(subscribers(ARGV[i]))
end
return out
