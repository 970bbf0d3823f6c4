-- Acquire, or re-enter, one half of a read-write lock: many readers or one writer. The writer
-- may also take the read lock (downgrade); a reader asking for the write lock is refused (an
-- upgrade would deadlock against the other readers). Each reader's hold has its own lease, kept
-- in a sorted set by the server's clock, so a dead reader's hold ends with its lease even while
-- other readers keep the lock. Every acquisition carries its own hold id, kept as a marker field
-- while the hold lasts, as in lock.lua: a repeated attempt counts once, and rw_unlock.lua given
-- the id takes back exactly that hold. A marker's value is the field of its hold, so a reader
-- whose lease ended goes with all its markers: none outlives its hold, where it would pass for a
-- hold of a later reader of the same holder. This script is the only one that removes ended
-- readers (the others only leave them out), so that cleanup has one copy.
--
-- KEYS[1]  lock hash: 'mode' = 'read' or 'write'; 'w:<holder>' and 'r:<holder>' = hold counts;
--          '#<hold id>' = the field of that hold ('r:<holder>' or 'w:<holder>'), one per hold
-- KEYS[2]  readers: sorted set, member = reader holder id, score = end of its lease (server ms)
-- ARGV[1]  lease in milliseconds
-- ARGV[2]  holder id
-- ARGV[3]  this acquisition's hold id (unique)
-- ARGV[4]  'read' or 'write'
-- ARGV[5]  '1' when the caller re-enters a hold of this half it knows it has, else '0'
--
-- Returns  {1, holdCount}  acquired
--          {0, ttlMillis}  held in the other mode by someone else (or by a lock of another kind
--                          under the same name); ttlMillis bounds the caller's sleep
--          {-1}            write asked by a holder that holds only the read lock (refused)
--          {-2}            a re-entry, but the holder holds nothing of this half: its lease was lost
local time = redis.call('time')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local lease = tonumber(ARGV[1])
local marker = '#' .. ARGV[3]

-- Readers whose own lease ended are gone, and so are the markers of their holds. Rare, so the
-- scan of the whole hash is fine.
local ended = redis.call('zrangebyscore', KEYS[2], '-inf', now)
if #ended > 0 then
    local gone = {}
    for _, reader in ipairs(ended) do
        gone['r:' .. reader] = true
    end
    local fields = redis.call('hgetall', KEYS[1])
    for i = 1, #fields, 2 do
        local name, value = fields[i], fields[i + 1]
        if gone[name] or (gone[value] and string.sub(name, 1, 1) == '#') then
            redis.call('hdel', KEYS[1], name)
        end
    end
    redis.call('zremrangebyscore', KEYS[2], '-inf', now)
end
local mode = redis.call('hget', KEYS[1], 'mode')
if mode == 'read' and redis.call('zcard', KEYS[2]) == 0 then
    redis.call('del', KEYS[1])
    mode = false
end

local field = (ARGV[4] == 'read' and 'r:' or 'w:') .. ARGV[2]
local function grant()
    -- A marker already there: this attempt ran before, its hold still lasts (a marker goes with
    -- its hold), and it counts once. Without the field there is no hold, whatever a marker says.
    local count = tonumber(redis.call('hget', KEYS[1], field))
    if not count or redis.call('hexists', KEYS[1], marker) == 0 then
        redis.call('hset', KEYS[1], marker, field)
        count = redis.call('hincrby', KEYS[1], field, 1)
    end
    if ARGV[4] == 'read' then
        local ends = now + lease
        local current = tonumber(redis.call('zscore', KEYS[2], ARGV[2]) or '0')
        if ends > current then
            redis.call('zadd', KEYS[2], ends, ARGV[2])
        end
        if redis.call('pttl', KEYS[2]) < lease then
            redis.call('pexpire', KEYS[2], lease)
        end
    end
    -- The hash lives as long as its longest hold; re-entering never shortens it.
    if redis.call('pttl', KEYS[1]) < lease then
        redis.call('pexpire', KEYS[1], lease)
    end
    return {1, count}
end

if redis.call('hexists', KEYS[1], field) == 1 then
    return grant()  -- re-entry, or this attempt ran before
end
if ARGV[5] == '1' then
    return {-2}
end
if not mode then
    if redis.call('exists', KEYS[1]) == 1 then
        -- Held by a lock of another kind under the same name: kinds exclude each other.
        return {0, redis.call('pttl', KEYS[1])}
    end
    redis.call('hset', KEYS[1], 'mode', ARGV[4])
    return grant()
end
local writer = redis.call('hexists', KEYS[1], 'w:' .. ARGV[2]) == 1
if ARGV[4] == 'read' then
    if mode == 'read' or writer then
        return grant()
    end
    return {0, redis.call('pttl', KEYS[1])}
end
if redis.call('hexists', KEYS[1], 'r:' .. ARGV[2]) == 1 then
    return {-1}
end
if mode == 'read' then
    -- Wait for the first reader's lease to end at the latest (a dead reader goes then).
    local first = redis.call('zrange', KEYS[2], 0, 0, 'withscores')
    if first[2] then
        return {0, math.max(1, tonumber(first[2]) - now)}
    end
end
return {0, redis.call('pttl', KEYS[1])}
