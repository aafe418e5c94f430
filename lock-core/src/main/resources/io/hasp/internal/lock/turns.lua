-- turns.lua: the line of waiting processes that releases of a lock serve one at a time. The opening of
-- acquire.lua, fenced_acquire.lua, unlock.lua, rollback.lua, leave_line.lua, force_unlock.lua and pass_turn.lua, and
-- of the read/write lock's scripts (whose writers take turns), which pass it their keys by name: its functions read
-- no KEYS or ARGV of their own.
--
-- Layout: hasp's own keys beside the lock's hash, which Redisson neither reads nor writes (the read/write lock's
-- are named "hasp_rwlock_line:{<name>}" and so on).
--   the line    "hasp_lock_line:{<name>}": a list of waiting processes (hasp client ids), first come first served
--   the places  "hasp_lock_line_place:{<name>}:<process>": one string key per waiting process, which lives as long
--               as its place lease (PX). A waiting process renews it each time it looks at the lock (at least every
--               third of the lease); a process whose place ran out is passed over when it reaches the head of the
--               line. Scripts are given the part before ":<process>" (place_of). Once the process's turn came, its
--               place holds SERVED until its lease ends: its entry has left the line, so that standing again puts it
--               at the end, and another entry of it still in the line is passed over. One key a process keeps every
--               lookup O(1) and lets the key's own expiry say whether the place is live: the server's work per
--               hand-off does not grow with the number of processes in line (a sorted set or hash of them would be
--               scanned at every lookup while it is small enough to be kept as one packed list).
--   the turn    "hasp_lock_turn:{<name>}": the process whose turn it is, for a short lease. While it stands, the
--               free lock goes to that process's waiters only (clients that do not take turns, Redisson's, are
--               not held back: they do not read it).
-- A process hears that its turn came on its own channel, "hasp_lock_turn__channel:{<name>}:<process>", with the
-- message "0"; a release tells nobody else, so the server's work per hand-off does not grow with the number of
-- processes that wait. A turn goes only to a process that listens: the publish answers how many heard it, and a
-- process that died or closed its client hears nothing, so it is passed over at once.
--
-- Grants: a waiting process may name the owner it expects to take its turn as its heir,
-- "<stamp>:<lease ms>:<owner field>" (the stamp, unique in its client, tells one naming from another): the value of
-- its place key ("" while it names none). A waiter that stands in line names itself (acquire.lua); a release that
-- keeps its process a place because its acquisitions come back names its own owner, who most likely comes back
-- (unlock.lua).
--   the grant  "hasp_lock_grant:{<name>}": "<process> <heir>", the process and heir the lock was last granted to, for
--              the grant's lease, until an acquire of that owner or its release consumes it (a decline of that grant
--              finds it there)
-- When a release frees the lock and nobody listens on the shared channel, the turn of a process with an heir is a
-- grant: the lock goes to the heir with its lease in the release itself, and the process hears "g<heir>" on its
-- turn channel instead of "0". One script per hand-off between processes instead of two (a release, then the
-- acquire of whoever was woken). grants is nil where a caller gives none, else {lock=, grant=}.

-- The key of process's place in line, given what the places' keys start with.
local function place_of(places, process)
    return places .. ':' .. process
end

-- What a place holds once its process's turn came (an heir is "<stamp>:...", or '' for none).
local SERVED = '-'

-- Gives process a place in line for place_millis: at the end, or at the head when first (its turn was taken by a
-- client that does not take turns); a process already in line keeps its place and renews it. heir, when given,
-- becomes the process's heir ('' names none); else the heir it named stays.
local function stand_in_line(line, places, process, place_millis, first, heir)
    local place = place_of(places, process)
    local was
    if heir then
        -- SET ... GET answers the value it replaced.
        was = redis.call('set', place, heir, 'px', place_millis, 'get')
    else
        was = redis.call('get', place)
        if was and was ~= SERVED then
            redis.call('pexpire', place, place_millis)
        else
            redis.call('set', place, '', 'px', place_millis)
        end
    end
    -- A place it had (an heir or '') means the process stands in the line; SERVED, that its entry left it. No place
    -- at all: a process new to the line, or one whose place ran out while its entry may still stand there, which
    -- keeps that entry (a look through the line, only on this path).
    if was == SERVED or (not was and not redis.call('lpos', line, process)) then
        if first then
            redis.call('lpush', line, process)
        else
            redis.call('rpush', line, process)
        end
    end
    -- The line goes when nobody has stood in it for a while.
    redis.call('pexpire', line, place_millis * 2)
end

-- Gives the free lock to heir, the heir next named, and tells next; true when next heard it, nil when next named
-- none. A grant nobody heard is undone (next is gone: it hears no turn either).
local function grant_to(grants, next, heir, publish, channel_prefix)
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
-- channel, and returns it; nil when nobody waits. Every place met on the way is used up (SERVED: the process stands
-- again when it waits again). from is the calling process ('' for none); when it is first in line itself, own says
-- what happens: 'quiet', it gets the turn without a message (the caller wakes one of its waiters); 'message', it
-- gets the turn and the message like any other process; 'skip', it is passed over. With grants, another process
-- that named an heir gets the lock itself (grant_to), and no turn is kept.
local function give_turn(line, places, turn, publish, channel_prefix, from, own, turn_millis, grants)
    while true do
        local next = redis.call('lpop', line)
        if not next then
            return nil
        end
        -- XX: a place that ran out is not made again (KEEPTTL would then keep no lease).
        local heir = redis.call('set', place_of(places, next), SERVED, 'xx', 'keepttl', 'get')
        if heir and heir ~= SERVED and not (next == from and own == 'skip') then
            if next == from and own == 'quiet' then
                redis.call('set', turn, next, 'px', turn_millis)
                return next
            end
            local granted = nil
            if grants then
                granted = grant_to(grants, next, heir, publish, channel_prefix)
            end
            if granted then
                return next
            end
            if granted == nil and redis.call(publish, channel_prefix .. next, '0') > 0 then
                redis.call('set', turn, next, 'px', turn_millis)
                return next
            end
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
-- takes turns (a read/write lock's holders); by default the lock's one field names its holder. heir, when given,
-- becomes the process's heir if it waits for its turn (the answer below -1).
local function wait_in_line(lock, line, places, turn, process, place_millis, free, holders_take_turns, heir)
    local park = math.max(1, math.floor(place_millis / 3))
    if free then
        if place_millis == 0 then
            return redis.call('pttl', turn)
        end
        stand_in_line(line, places, process, place_millis, false, heir)
        return -2 - park
    end
    local ttl = redis.call('pttl', lock)
    if place_millis == 0 then
        return ttl
    end
    local turning
    if holders_take_turns then
        turning = holders_take_turns(lock)
    else
        turning = takes_turns(redis.call('hkeys', lock)[1])
    end
    -- This process's turn, but a client that takes no turns took the lock first: it keeps the head of the line.
    local first = redis.call('get', turn) == process
    if first then
        redis.call('del', turn)
    end
    stand_in_line(line, places, process, place_millis, first, turning and heir or nil)
    if ttl >= 0 and ttl < park then
        park = math.max(1, ttl)
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
    if stays == '2' then
        stand_in_line(line, places, process, place_millis, false)
    end
    local own = listeners == 0 and 'quiet' or 'message'
    local next = give_turn(line, places, turn, publish, turn_prefix, process, own, turn_millis,
            listeners == 0 and grants or nil)
    if listeners > 0 then
        return 3
    elseif next == process then
        return 4
    elseif next then
        if stays == '1' then
            local heir = nil
            if grants and own_heir and own_heir ~= '' then
                heir = own_heir
            end
            stand_in_line(line, places, process, place_millis, false, heir)
        end
        return 5
    end
    return nil
end
