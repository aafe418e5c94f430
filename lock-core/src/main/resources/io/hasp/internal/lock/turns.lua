-- turns.lua: the line of waiting processes that releases of a lock serve one at a time. The opening of
-- acquire.lua, fenced_acquire.lua, unlock.lua, rollback.lua, force_unlock.lua and pass_turn.lua, and of the
-- read/write lock's scripts (whose writers take turns), which pass it their keys by name: its functions read no KEYS
-- or ARGV of their own.
--
-- Layout: hasp's own keys beside the lock's hash, which Redisson neither reads nor writes (the read/write lock's
-- are named "hasp_rwlock_line:{<name>}" and so on).
--   the line    "hasp_lock_line:{<name>}": a list of waiting processes (hasp client ids), first come first served
--   the places  "hasp_lock_line_places:{<name>}": a sorted set, waiting process -> the end of its place lease in
--               the server's milliseconds. A waiting process renews it each time it looks at the lock (at least
--               every third of the lease); a place that ran out is dropped when it reaches the head of the line.
--   the turn    "hasp_lock_turn:{<name>}": the process whose turn it is, for a short lease. While it stands, the
--               free lock goes to that process's waiters only (clients that do not take turns, Redisson's, are
--               not held back: they do not read it).
-- A process hears that its turn came on its own channel, "hasp_lock_turn__channel:{<name>}:<process>", with the
-- message "0"; a release tells nobody else, so the server's work per hand-off does not grow with the number of
-- processes that wait. A turn goes only to a process that listens: the publish answers how many heard it, and a
-- process that died or closed its client hears nothing, so it is passed over at once.

-- The server's clock in milliseconds (scripts replicate their effects, so reading it is allowed).
local function server_millis()
    local clock = redis.call('time')
    return tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
end

-- Gives process a place in line for place_millis: at the end, or at the head when first (its turn was taken by a
-- client that does not take turns); a process already in line keeps its place and renews it. now is the server's
-- clock when the caller read it already (else nil); returns the clock it used.
local function stand_in_line(line, places, process, place_millis, first, now)
    now = now or server_millis()
    -- ZADD counts the members it added: a process new to the places is new to the line.
    if redis.call('zadd', places, now + place_millis, process) == 1 then
        if first then
            redis.call('lpush', line, process)
        else
            redis.call('rpush', line, process)
        end
    end
    -- Both keys go when nobody has stood in line for a while.
    redis.call('pexpire', line, place_millis * 2)
    redis.call('pexpire', places, place_millis * 2)
    return now
end

-- Grants: a waiting process may name the owner it expects to take its turn as its heir,
-- "<stamp>:<lease ms>:<owner field>" (the stamp, unique in its client, tells one naming from another), in
--   the heirs  "hasp_lock_line_heirs:{<name>}": a hash, waiting process -> its heir. A waiter that stands in line
--              names itself (acquire.lua); a release that keeps its process a place because its acquisitions come
--              back names its own owner, who most likely comes back (unlock.lua).
--   the grant  "hasp_lock_grant:{<name>}": "<process> <heir>", the process and heir the lock was last granted to, for
--              the grant's lease, until an acquire of that owner or its release consumes it (a decline of that grant
--              finds it there)
-- When a release frees the lock and nobody listens on the shared channel, the turn of a process with an heir is a
-- grant: the lock goes to the heir with its lease in the release itself, and the process hears "g<heir>" on its
-- turn channel instead of "0". One script per hand-off between processes instead of two (a release, then the
-- acquire of whoever was woken). grants is nil where a caller gives none, else {lock=, heirs=, grant=}.

-- Gives the free lock to next's heir, if it has one, and tells next; true when next heard it. A grant nobody heard
-- is undone (next is gone: it hears no turn either).
local function grant_to(grants, next, publish, channel_prefix)
    local heir = redis.call('hget', grants.heirs, next)
    if not heir then
        return nil
    end
    redis.call('hdel', grants.heirs, next)
    local stamp, lease, field = string.match(heir, '^(%d+):(%d+):(.+)$')
    if not stamp then
        return nil
    end
    redis.call('hset', grants.lock, field, 1)
    redis.call('pexpire', grants.lock, lease)
    redis.call('set', grants.grant, next .. ' ' .. heir, 'px', lease)
    if redis.call(publish, channel_prefix .. next, 'g' .. heir) > 0 then
        return true
    end
    redis.call('del', grants.lock, grants.grant)
    return false
end

-- The lock was freed: gives the turn to the first process in line whose place is live and that listens on its
-- channel, and returns it; nil when nobody waits. from is the calling process ('' for none); when it is first in
-- line itself, own says what happens: 'quiet', it gets the turn without a message (the caller wakes one of its
-- waiters); 'message', it gets the turn and the message like any other process; 'skip', it is passed over. With
-- grants, another process that named an heir gets the lock itself (grant_to), and no turn is kept. now, when the
-- caller read the server's clock already, saves reading it again; the second answer is the clock read (or nil).
local function give_turn(line, places, turn, publish, channel_prefix, from, own, turn_millis, grants, now)
    while true do
        local next = redis.call('lpop', line)
        if not next then
            return nil, now
        end
        local place = redis.call('zscore', places, next)
        redis.call('zrem', places, next)
        now = now or server_millis()
        local live = place and tonumber(place) > now
        if live and not (next == from and own == 'skip') then
            if next == from and own == 'quiet' then
                redis.call('set', turn, next, 'px', turn_millis)
                return next, now
            end
            local granted = nil
            if grants then
                granted = grant_to(grants, next, publish, channel_prefix)
            end
            if granted then
                return next, now
            end
            if granted == nil and redis.call(publish, channel_prefix .. next, '0') > 0 then
                redis.call('set', turn, next, 'px', turn_millis)
                return next, now
            end
        elseif grants and not live then
            redis.call('hdel', grants.heirs, next)
        end
    end
end

-- Whether a holder's field names a hasp client that takes turns: hasp's client ids are version-8 UUIDs
-- ("xxxxxxxx-xxxx-8xxx-...:<holder>"); Redisson's are version 4. Its release then gives the next turn, so a
-- waiter need not listen on the lock's shared channel.
local function takes_turns(field)
    return field ~= nil and string.byte(field, 37) == 58 and string.byte(field, 15) == 56
            and string.byte(field, 9) == 45
end

-- Whether the caller's process may take the free lock now: it is nobody's turn, or the caller's own (used up here).
local function may_take(turn, process)
    local turn_of = redis.call('get', turn)
    if turn_of == process then
        redis.call('del', turn)
    end
    return not turn_of or turn_of == process
end

-- The lock is taken (or, when free, kept for another process's turn): the caller's process stands in line when
-- the caller waits (place_millis above 0), and the answer is how long the caller may park before it looks again
-- (at most a third of the place lease, at most the holder's remaining lease): as -2 - that time when the process
-- waits for its turn behind a holder that takes turns, else as that time itself (a holder that takes no turns:
-- the caller listens on the lock's shared channel too). A single try (place_millis 0) takes no place and is
-- answered the lock's (or the turn's) PTTL. holders_take_turns, when given, tells whether every holder of the lock
-- takes turns (a read/write lock's holders); by default the lock's one field names its holder.
local function wait_in_line(lock, line, places, turn, process, place_millis, free, holders_take_turns)
    local park = math.max(1, math.floor(place_millis / 3))
    if free then
        if place_millis == 0 then
            return redis.call('pttl', turn)
        end
        stand_in_line(line, places, process, place_millis, false)
        return -2 - park
    end
    local ttl = redis.call('pttl', lock)
    if place_millis == 0 then
        return ttl
    end
    -- This process's turn, but a client that takes no turns took the lock first: it keeps the head of the line.
    local first = redis.call('get', turn) == process
    if first then
        redis.call('del', turn)
    end
    stand_in_line(line, places, process, place_millis, first)
    if ttl >= 0 and ttl < park then
        park = math.max(1, ttl)
    end
    local turning
    if holders_take_turns then
        turning = holders_take_turns(lock)
    else
        turning = takes_turns(redis.call('hkeys', lock)[1])
    end
    if turning then
        return -2 - park
    end
    return park
end

-- A release by process freed the lock: publishes message on the lock's shared channel, where clients that take no
-- turns listen, and gives the turn to the first live process in line. stays says whether the releasing process
-- keeps a place in line ('2': before the turn is given; '1': when the turn went to another process; '0': no), and
-- own_listener is 1 when the releasing process itself listens on the shared channel (it is then not counted among
-- the others). With grants (see grant_to), used only when nobody else listens there, the next process's heir may
-- get the lock, and own_heir ('' for none) becomes the releasing process's heir when it keeps a place ('1').
-- Returns 3 when others listen on the shared channel, 4 when the turn went to the releasing process itself without a
-- message, 5 when it (or a grant) went to another process, nil when nobody waits in line.
local function announce_free(line, places, turn, publish, channel, message, process, stays, place_millis,
                             turn_millis, turn_prefix, own_listener, grants, own_heir)
    local listeners = redis.call(publish, channel, message) - own_listener
    local now
    if stays == '2' then
        now = stand_in_line(line, places, process, place_millis, false)
    end
    local own = listeners == 0 and 'quiet' or 'message'
    local next
    next, now = give_turn(line, places, turn, publish, turn_prefix, process, own, turn_millis,
            listeners == 0 and grants or nil, now)
    if listeners > 0 then
        return 3
    elseif next == process then
        return 4
    elseif next then
        if stays == '1' then
            stand_in_line(line, places, process, place_millis, false, now)
            if grants and own_heir and own_heir ~= '' then
                redis.call('hset', grants.heirs, process, own_heir)
                redis.call('pexpire', grants.heirs, place_millis * 2)
            end
        end
        return 5
    end
    return nil
end
