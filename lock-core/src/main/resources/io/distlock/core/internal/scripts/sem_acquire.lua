-- Take one permit of a semaphore, for a holder that may already have some. Each permit is a hold
-- with an id of its own, kept as a marker field ('#' .. hold id = 'r:' .. the holder id) while it
-- lasts. The prefix keeps a marker apart from '#used' and '#permits', whose values are numbers
-- that a holder id may equal; it is the one a read-write lock gives a reader, another holder whose
-- lease is its own in a sorted set, so that rw_renew.lua and lease_left.lua serve both. A marker
-- makes the permit a thing of its own, as in lock.lua: running the same attempt twice (a command sent again after a reconnect) takes
-- one permit, and sem_release.lua given the id gives back exactly that one. A holder's permits
-- share one lease, the holder's entry in the leases sorted set, by the server's clock: the latest
-- end any of its grants or renewals set. A holder whose lease ended is gone with all its permits
-- and markers; this script is the only one that removes such holders (the others leave them
-- out), so that cleanup has one copy.
--
-- The permit count is part of the semaphore's state ('#permits'), set by the first grant and
-- changed only by sem_permits.lua: an attempt that asks with another count is refused, so two
-- clients that disagree about it never mix their counts. The state, count included, goes with
-- the last permit.
--
-- KEYS[1]  semaphore hash: '#permits' = the permit count; '#used' = permits held; '<holder>' =
--          that holder's permits; '#<hold id>' = 'r:' .. the holder of that permit, one per permit
-- KEYS[2]  leases: sorted set, member = holder id, score = end of its lease (server ms)
-- ARGV[1]  lease in milliseconds
-- ARGV[2]  holder id
-- ARGV[3]  this acquisition's hold id (unique)
-- ARGV[4]  '1' when the holder takes one more permit while it knows it holds some, else '0'
-- ARGV[5]  the permit count the caller expects
--
-- Returns  {1, count}         acquired; count is the holder's permits with this one
--          {0, waitMillis}    no permit free; waitMillis is when the first lease ends at the latest
--          {-2}               ARGV[4] = '1', but the holder holds nothing: its lease was lost
--          {-3, permits}      the semaphore has another permit count (returned): nothing changed
local time = redis.call('time')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local lease, holder, marker = tonumber(ARGV[1]), ARGV[2], '#' .. ARGV[3]
local owner = 'r:' .. holder

-- Holders whose lease ended are gone, with their permits and markers. Rare, so the scan of the
-- whole hash is fine.
local ended = redis.call('zrangebyscore', KEYS[2], '-inf', now)
if #ended > 0 then
    local gone, freed = {}, 0
    for _, name in ipairs(ended) do
        gone[name] = true
        freed = freed + tonumber(redis.call('hget', KEYS[1], name) or '0')
    end
    local fields = redis.call('hgetall', KEYS[1])
    for i = 1, #fields, 2 do
        local name, value = fields[i], fields[i + 1]
        if gone[name] or (string.sub(name, 1, 1) == '#' and string.sub(value, 1, 2) == 'r:'
                and gone[string.sub(value, 3)]) then
            redis.call('hdel', KEYS[1], name)
        end
    end
    redis.call('zremrangebyscore', KEYS[2], '-inf', now)
    redis.call('hincrby', KEYS[1], '#used', -freed)
end
if redis.call('zcard', KEYS[2]) == 0 then
    redis.call('del', KEYS[1], KEYS[2])  -- no permit held: the count goes too
end

local permits = redis.call('hget', KEYS[1], '#permits')
if permits and permits ~= ARGV[5] then
    return {-3, tonumber(permits)}
end
local count = redis.call('hget', KEYS[1], holder)
if redis.call('hget', KEYS[1], marker) ~= owner then
    -- A new permit (not a run of this attempt again, whose permit still lasts).
    if ARGV[4] == '1' and not count then
        return {-2}
    end
    if tonumber(redis.call('hget', KEYS[1], '#used') or '0') >= tonumber(ARGV[5]) then
        local first = redis.call('zrange', KEYS[2], 0, 0, 'withscores')
        return {0, math.max(1, tonumber(first[2]) - now)}
    end
    redis.call('hset', KEYS[1], '#permits', ARGV[5], marker, owner)
    redis.call('hincrby', KEYS[1], '#used', 1)
    count = redis.call('hincrby', KEYS[1], holder, 1)
end
-- The holder's lease and the keys' lives are only ever lengthened.
local ends = now + lease
if tonumber(redis.call('zscore', KEYS[2], holder) or '0') < ends then
    redis.call('zadd', KEYS[2], ends, holder)
end
for _, key in ipairs(KEYS) do
    if redis.call('pttl', key) < lease then
        redis.call('pexpire', key, lease)
    end
end
return {1, tonumber(count)}
