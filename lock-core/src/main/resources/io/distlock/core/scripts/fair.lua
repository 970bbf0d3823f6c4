-- The fair lock: a reentrant lock handed out in arrival order across all clients. Waiters queue
-- in a list; each has a slot deadline by the server's clock, refreshed whenever it looks again.
-- A waiter whose deadline passed (its process died) is dropped from the head of the queue, so it
-- holds up the ones behind it for at most one slot timeout once the lock is free. Releases wake
-- only the next two waiters (the next, and the one that takes over if the next is gone), each on
-- its client's channel, with '@' and its holder id as the message.
--
-- KEYS[1]  lock hash: field = holder id, value = hold count (as lock.lua)
-- KEYS[2]  queue: list of waiting holder ids, first = next
-- KEYS[3]  timeouts: sorted set, member = waiting holder id, score = slot deadline (server ms)
-- KEYS[4]  clients: hash, field = waiting holder id, value = its client's channel suffix
-- ARGV[1]  operation: 'lock', 'unlock', 'leave' or 'force'
-- ARGV[2]  holder id ('force': unused)
-- ARGV[3]  slot timeout in milliseconds: how long the next waiter has to take a free lock
-- ARGV[4]  channel prefix; a waiter is woken on <prefix><its client's suffix>
-- ARGV[5]  publish command: 'publish', or 'spublish' (sharded pub/sub, Redis 7 cluster)
-- 'lock':   ARGV[6] lease ms, ARGV[7] hold count the caller knows (0 = none),
--           ARGV[8] the caller's channel suffix. A busy lock queues the caller (or refreshes its
--           place); a caller that stops waiting must 'leave'.
--           Returns {1, holdCount} acquired, or {0, sleepMillis}: how long to sleep at most
--           before looking again (the holder's lease, or until the waiter ahead may be dropped)
-- 'unlock': ARGV[6] the holder's hold count before this release, as the caller knows it
--           Returns as unlock.lua: the count left, the unchanged count of a retried release, or -1
-- 'leave':  a waiter gives up its place. Returns 1.
-- 'force':  deletes the lock whoever holds it. Returns 1 if there was one, else 0.
local time = redis.call('time')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local op, holder, slot = ARGV[1], ARGV[2], tonumber(ARGV[3])

local function forget(waiter)
    redis.call('zrem', KEYS[3], waiter)
    redis.call('hdel', KEYS[4], waiter)
end

-- Drops waiters at the head whose slot deadline passed; returns the live head, if any.
local function liveHead()
    while true do
        local head = redis.call('lindex', KEYS[2], 0)
        if not head then
            return false
        end
        local deadline = redis.call('zscore', KEYS[3], head)
        if deadline and tonumber(deadline) > now then
            return head
        end
        redis.call('lpop', KEYS[2])
        forget(head)
    end
end

local function notify(waiter)
    local suffix = redis.call('hget', KEYS[4], waiter)
    if suffix then
        redis.call(ARGV[5], ARGV[4] .. suffix, '@' .. waiter)
    end
end

-- The lock is free: give the next waiter one slot to take it, and wake it. The one behind it is
-- woken too, to learn when that slot ends: if the next waiter's process is gone, it takes over
-- then instead of sleeping out the old holder's lease.
local function wakeNext()
    local head = liveHead()
    if head then
        redis.call('zadd', KEYS[3], now + slot, head)
        notify(head)
        local second = redis.call('lindex', KEYS[2], 1)
        if second then
            notify(second)
        end
    end
end

if op == 'lock' then
    local lease, known = tonumber(ARGV[6]), tonumber(ARGV[7])
    local locked = redis.call('exists', KEYS[1]) == 1
    if locked and redis.call('hexists', KEYS[1], holder) == 1 then
        redis.call('hset', KEYS[1], holder, known + 1)
        if redis.call('pttl', KEYS[1]) < lease then
            redis.call('pexpire', KEYS[1], lease)
        end
        return {1, known + 1}
    end
    local head = liveHead()
    if not locked and (not head or head == holder) then
        if head then
            redis.call('lpop', KEYS[2])
            forget(holder)
        end
        redis.call('hset', KEYS[1], holder, 1)
        redis.call('pexpire', KEYS[1], lease)
        return {1, 1}
    end
    local ttl = locked and redis.call('pttl', KEYS[1]) or 0
    if ttl < 0 then
        ttl = 0
    end
    if not redis.call('zscore', KEYS[3], holder) then
        redis.call('rpush', KEYS[2], holder)
        redis.call('hset', KEYS[4], holder, ARGV[8])
    end
    -- Deadline: the lock may stay held for ttl, then this waiter has a slot; it looks again (and
    -- so refreshes this) within ttl at the latest.
    redis.call('zadd', KEYS[3], now + ttl + slot, holder)
    local sleep = locked and ttl or slot
    if head and head ~= holder then
        sleep = math.min(sleep, tonumber(redis.call('zscore', KEYS[3], head)) - now)
    end
    return {0, math.max(1, sleep)}
end

if op == 'unlock' then
    local count = tonumber(redis.call('hget', KEYS[1], holder))
    if count == nil then
        return -1
    end
    if count < tonumber(ARGV[6]) then
        return count
    end
    count = redis.call('hincrby', KEYS[1], holder, -1)
    if count > 0 then
        return count
    end
    redis.call('del', KEYS[1])
    wakeNext()
    return 0
end

if op == 'leave' then
    local wasHead = redis.call('lindex', KEYS[2], 0) == holder
    redis.call('lrem', KEYS[2], 0, holder)
    forget(holder)
    if wasHead and redis.call('exists', KEYS[1]) == 0 then
        wakeNext()
    end
    return 1
end

-- 'force'
if redis.call('del', KEYS[1]) == 1 then
    wakeNext()
    return 1
end
return 0
