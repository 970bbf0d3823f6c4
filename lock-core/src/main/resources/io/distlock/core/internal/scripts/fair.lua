-- The fair lock: a reentrant lock handed out in arrival order across all clients. Waiters queue
-- in a list, one place per acquisition (its hold id: two overlapping acquisitions of one holder
-- wait in two places, and one that gives up leaves only its own). Each is told how long it may
-- sleep before it looks again, and its deadline (by the server's clock) is that time plus one slot
-- timeout. So a waiter whose deadline passed never came back: its process is gone, and it is
-- dropped once it is at the head of the queue. A live waiter is not dropped for sleeping: it looks
-- again before its deadline, or its turn wakes it. The waiting room (queue, timeouts, clients)
-- expires at most one slot after the latest deadline it was given since it was created (a deadline
-- can later be shortened: a new turn, a fresh look), so the places of waiters whose process died
-- outlive them by a lease at most.
--
-- Turns: when the lock is released or the head of the queue changes (it took the lock, left, or
-- was dropped), the head gets a new turn: until the lock can be free plus one slot to take it. It
-- is woken if the turn ends sooner than its deadline did, and the waiters behind it up to the
-- first whose client listens on its channel (nobody listens for the waiters of a dead process) if
-- any of them may sleep past the turn's end, so that one looks again when the turn ends. A waiter
-- that looked sleeps at most until a slot before its deadline, so a turn that ends no sooner than
-- the sleeps it follows (the next waiter took the lock with the lease the previous one had) wakes
-- nobody: in a busy queue only a release wakes waiters.
-- A dead head thus costs one slot, and dead waiters in a row one slot each. Nothing runs when a
-- lease runs out, so no waiter sleeps past the holder's lease, nor, behind the head, past the
-- head's turn. Wake-ups go to each waiter's client channel, with '@' and its waiter id.
--
-- KEYS[1]  lock hash: field = holder id, value = hold count; '#<hold id>' per hold (as lock.lua)
-- KEYS[2]  queue: list of waiter ids (the hold ids of waiting acquisitions), first = next
-- KEYS[3]  timeouts: sorted set, member = waiter id, score = its deadline (server ms)
-- KEYS[4]  clients: hash, field = waiter id, value = its client's channel suffix
-- KEYS[5]  'unlock': the lock's answer book (see release_answer.lua); 'force': this call's answer
--          key
-- KEYS[6]  'unlock': the lock's previous answer book
-- ARGV[1]  operation: 'lock', 'unlock', 'lease', 'leave' or 'force'
-- ARGV[2]  holder id ('leave', 'force': unused)
-- ARGV[3]  slot timeout in milliseconds: how long a waiter has to take a free lock, or to look
--          again, before it counts as gone
-- ARGV[4]  channel prefix; a waiter is woken on <prefix><its client's suffix>
-- ARGV[5]  publish command: 'publish', or 'spublish' (sharded pub/sub, Redis 7 cluster)
-- 'lock':   ARGV[6] lease ms, ARGV[7] this acquisition's hold id, also its waiter id, ARGV[8] '1'
--           when the caller re-enters a hold it knows it has (else '0'), ARGV[9] the caller's
--           channel suffix. A busy lock queues the acquisition (or refreshes its place); an
--           acquisition that stops waiting must 'leave'. Hold ids work as in lock.lua: a repeated
--           attempt counts once.
--           Returns {1, holdCount} acquired, {0, sleepMillis}: how long to sleep at most before
--           looking again (until the lock can be free and, behind the head, until the head's
--           turn ends), or {-2}: a re-entry, but the holder holds nothing (its lease was lost)
-- 'unlock': ARGV[6] hold id of the hold to release, ARGV[7] how long the answer book lives after a
--           write (ms), ARGV[8] hold ids whose release answers the client has read, separated by
--           spaces (may be empty): deleted from the book.
--           Returns as unlock.lua, exactly once (release_answer.lua is prepended to this script):
--           {1, count} released now, {2, count} released before by an earlier run of this
--           release, {0, count} that hold is not there, {-1, 0} the holder holds nothing, {-2, 0}
--           it held nothing when an earlier run of this release looked
-- 'lease':  gives a held lock an explicit lease from now, as lease.lua does (for composite locks):
--           ARGV[6] lease ms, ARGV[7] hold id of a hold of the holder, ARGV[8] '1' set exactly
--           (if that hold is the holder's only one here, as in lease.lua), '0' only lengthen. A
--           shorter lease gives the head a new turn (see the top), which wakes it and the waiters
--           behind it that must look again.
--           Returns 1 lease set, 0 that hold is gone (its lease was lost)
-- 'leave':  ARGV[6] a waiter id: that acquisition gives up its place. Returns 1.
-- 'force':  deletes the lock whoever holds it, once per call: KEYS[5] this call's answer key,
--           ARGV[6] how long it is kept (ms); the same call run again answers as the first run
--           did and deletes nothing (see force_unlock.lua). Returns 1 if this call deleted a
--           lock, else 0.
local time = redis.call('time')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local op, holder, slot = ARGV[1], ARGV[2], tonumber(ARGV[3])
-- The caller's own waiter id: it is looking right now, so it is not woken.
local caller = op == 'lock' and ARGV[7] or nil

local function forget(waiter)
    redis.call('zrem', KEYS[3], waiter)
    redis.call('hdel', KEYS[4], waiter)
end

-- Sets a waiter's deadline. The waiting room outlives every deadline in it (after the last one
-- every waiter in it is gone): it is lengthened only when a deadline passes its end, and then to a
-- slot beyond, so a busy queue lengthens it once a slot, not on every call. It is never shortened,
-- so it ends at most a slot after the latest deadline it was given.
-- Its three keys hold the same waiters, so they are created and emptied together, and the
-- timeouts key tells the expiry of all three.
local function setDeadline(waiter, deadline)
    redis.call('zadd', KEYS[3], deadline, waiter)
    local needed = deadline - now
    if redis.call('pttl', KEYS[3]) < needed then
        for i = 2, 4 do
            redis.call('pexpire', KEYS[i], needed + slot)
        end
    end
end

-- Milliseconds until the lock can be free: what is left of its lease, 0 when it is free. A lock
-- without an expiry (PERSIST by hand, a key written by something else) may be free at any time
-- and no lease tells when: one slot, so that its waiters look again once a slot.
local function untilFree()
    local ttl = redis.call('pttl', KEYS[1])
    if ttl == -1 then
        return slot
    end
    return math.max(0, ttl)
end

-- Drops the waiters at the head whose deadline passed. Returns whether it dropped any.
local function dropGone()
    local dropped = false
    while true do
        local head = redis.call('lindex', KEYS[2], 0)
        if not head then
            return dropped
        end
        local deadline = redis.call('zscore', KEYS[3], head)
        if deadline and tonumber(deadline) > now then
            return dropped
        end
        redis.call('lpop', KEYS[2])
        forget(head)
        dropped = true
    end
end

-- Wakes a waiter, unless it is the caller, who is looking right now. Returns whether its client
-- listened.
local function wake(waiter)
    if waiter == caller then
        return true
    end
    local suffix = redis.call('hget', KEYS[4], waiter)
    return suffix and redis.call(ARGV[5], ARGV[4] .. suffix, '@' .. waiter) > 0
end

-- Gives the head a new turn, the lock being free in 'free' ms at the latest (see the top).
local function newTurn(free)
    dropGone()
    local head = redis.call('lindex', KEYS[2], 0)
    if not head then
        return
    end
    -- Every waiter's own sleep ends a slot before its deadline at the latest: it set both when it
    -- last looked, or was woken since (see the top). So the head need not look now if its turn
    -- does not shorten its deadline, and the waiters behind it need not if none of them may sleep
    -- past the turn's end: each live one looks by then.
    local turnEnd = now + free + slot
    local shortened = turnEnd < tonumber(redis.call('zscore', KEYS[3], head))
    setDeadline(head, turnEnd)
    if shortened then
        wake(head)
    end
    if redis.call('zcount', KEYS[3], '(' .. (turnEnd + slot), '+inf') == 0 then
        return
    end
    local at = 1
    repeat
        local behind = redis.call('lindex', KEYS[2], at)
        at = at + 1
    until not behind or wake(behind)
end

-- A waiter leaves its place, if it has one; the head leaving gives the next a turn.
local function leave(waiter)
    if not redis.call('zscore', KEYS[3], waiter) then
        return
    end
    local wasHead = redis.call('lindex', KEYS[2], 0) == waiter
    redis.call('lrem', KEYS[2], 0, waiter)
    forget(waiter)
    if wasHead then
        newTurn(untilFree())
    end
end

if op == 'lock' then
    local lease, marker = tonumber(ARGV[6]), '#' .. caller
    local locked = redis.call('exists', KEYS[1]) == 1
    local count = locked and redis.call('hget', KEYS[1], holder)
    if count then
        if redis.call('hsetnx', KEYS[1], marker, 1) == 1 then
            count = redis.call('hincrby', KEYS[1], holder, 1)
            if redis.call('pttl', KEYS[1]) < lease then
                redis.call('pexpire', KEYS[1], lease)
            end
        end
        leave(caller)  -- it queued while another acquisition of its holder waited for the lock
        return {1, tonumber(count)}
    end
    if ARGV[8] == '1' then
        return {-2}
    end
    local headDropped = dropGone()
    local head = redis.call('lindex', KEYS[2], 0)
    if not locked and (not head or head == caller) then
        redis.call('hset', KEYS[1], holder, 1, marker, 1)
        redis.call('pexpire', KEYS[1], lease)
        if head then
            redis.call('lpop', KEYS[2])
            forget(caller)
            newTurn(lease)
        end
        return {1, 1}
    end
    if headDropped then
        newTurn(untilFree())
    end
    if not redis.call('zscore', KEYS[3], caller) then
        redis.call('rpush', KEYS[2], caller)
        redis.call('hset', KEYS[4], caller, ARGV[9])
    end
    local sleep = locked and untilFree() or math.huge
    head = redis.call('lindex', KEYS[2], 0)
    if head ~= caller then
        sleep = math.min(sleep, tonumber(redis.call('zscore', KEYS[3], head)) - now)
    end
    sleep = math.max(1, sleep)
    setDeadline(caller, now + sleep + slot)
    return {0, sleep}
end

if op == 'unlock' then
    local answers = answers_of(KEYS[5], KEYS[6], ARGV[6], ARGV[7], ARGV[8])
    local count = redis.call('hget', KEYS[1], holder)
    if not count then
        return not_here(answers, nil)
    end
    if redis.call('hdel', KEYS[1], '#' .. ARGV[6]) == 0 then
        return not_here(answers, count)
    end
    count = redis.call('hincrby', KEYS[1], holder, -1)
    if count > 0 then
        return remember_release(answers, 1, count)
    end
    redis.call('del', KEYS[1])
    newTurn(0)
    return remember_release(answers, 1, 0)
end

if op == 'lease' then
    if redis.call('hexists', KEYS[1], '#' .. ARGV[7]) == 0 then
        return 0
    end
    local lease, ttl = tonumber(ARGV[6]), redis.call('pttl', KEYS[1])
    if ARGV[8] == '1' and redis.call('hget', KEYS[1], holder) == '1' then
        redis.call('pexpire', KEYS[1], lease)
        if lease < ttl then
            newTurn(lease)  -- the waiters sleep until the longer lease would have ended
        end
    elseif ttl < lease then
        redis.call('pexpire', KEYS[1], lease)
    end
    return 1
end

if op == 'leave' then
    leave(ARGV[6])
    return 1
end

-- 'force'
local answered = redis.call('get', KEYS[5])
if answered then
    return tonumber(answered)
end
local deleted = redis.call('del', KEYS[1])
if deleted == 1 then
    newTurn(0)
end
redis.call('set', KEYS[5], deleted, 'px', ARGV[6])
return deleted
