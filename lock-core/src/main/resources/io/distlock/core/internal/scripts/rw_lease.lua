-- Give one hold of a read-write lock an explicit lease from now (see lease.lua for why), only
-- while that hold is there (its hold id, whose marker names the hold's field, see rw_lock.lua).
-- A reader's lease is its score in the readers set; the hash lives as long as its longest hold:
-- in read mode exactly as long as its longest reader, in write mode never shorter than the
-- writer's lease. A lease made shorter wakes every waiter to look again (they slept as long as
-- the longer lease would have lasted).
--
-- KEYS[1]  lock hash (see rw_lock.lua)
-- KEYS[2]  readers sorted set
-- KEYS[3]  the lock's wake-up channel
-- ARGV[1]  lease in milliseconds
-- ARGV[2]  the hold's field: 'r:<holder>' or 'w:<holder>'
-- ARGV[3]  hold id of a hold of the holder in this half
-- ARGV[4]  '1': the lease is set exactly (every hold of the holder in this half asked for it);
--          '0': it is only lengthened (earlier holds keep their lease)
-- ARGV[5]  message published to wake waiters
-- ARGV[6]  publish command: 'publish', or 'spublish' (sharded pub/sub, Redis 7 cluster)
--
-- Returns  1 lease set; 0 that hold is gone (its lease was lost)
local time = redis.call('time')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local hash, readers, field = KEYS[1], KEYS[2], ARGV[2]
local lease, exact = tonumber(ARGV[1]), ARGV[4] == '1'
if redis.call('hget', hash, '#' .. ARGV[3]) ~= field then
    return 0
end
local reader = string.sub(field, 1, 2) == 'r:'
local shortened = false
if reader then
    local holder = string.sub(field, 3)
    local ends = tonumber(redis.call('zscore', readers, holder) or '0')
    if ends <= now then
        return 0  -- the reader's own lease ended
    end
    if exact or ends < now + lease then
        redis.call('zadd', readers, now + lease, holder)
        shortened = now + lease < ends
    end
end
local longest = redis.call('zrange', readers, -1, -1, 'withscores')
local readersLast = longest[2] and math.max(0, tonumber(longest[2]) - now) or 0
local ttl = redis.call('pttl', hash)
local keep
if redis.call('hget', hash, 'mode') == 'read' then
    keep = readersLast
elseif reader or not exact then
    keep = math.max(ttl, readersLast, reader and 0 or lease)
else
    keep = math.max(lease, readersLast)
end
redis.call('pexpire', hash, keep)
if readersLast > 0 then
    redis.call('pexpire', readers, readersLast)
end
if shortened or keep < ttl then
    redis.call(ARGV[6], KEYS[3], ARGV[5])
end
return 1
