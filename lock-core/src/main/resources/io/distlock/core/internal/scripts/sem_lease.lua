-- Give a semaphore holder's permits an explicit lease from now: a composite lock acquires its
-- components with the watchdog, and once all are held gives each its lease this way. Only while
-- the given permit is there and the holder's lease has not ended: a permit already gone is
-- reported, never brought back. A lease made shorter wakes the waiters, which slept as long as
-- the longer lease would have lasted, to look again.
--
-- KEYS[1]  semaphore hash (see sem_acquire.lua)
-- KEYS[2]  leases sorted set
-- KEYS[3]  the semaphore's wake-up channel
-- ARGV[1]  lease in milliseconds
-- ARGV[2]  holder id
-- ARGV[3]  hold id of a permit of the holder
-- ARGV[4]  '1': set exactly, if that permit is the holder's only one; '0': only lengthened (the
--          holder's earlier permits keep their lease)
-- ARGV[5]  message published to wake the waiters
-- ARGV[6]  publish command: 'publish', or 'spublish' (sharded pub/sub, Redis 7 cluster)
--
-- Returns  1 lease set; 0 that permit is gone (its lease was lost)
local time = redis.call('time')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local holder, lease = ARGV[2], tonumber(ARGV[1])
local ends = tonumber(redis.call('zscore', KEYS[2], holder) or '0')
if ends <= now or redis.call('hget', KEYS[1], '#' .. ARGV[3]) ~= 'r:' .. holder then
    return 0
end
if ARGV[4] == '1' and redis.call('hget', KEYS[1], holder) == '1' then
    redis.call('zadd', KEYS[2], now + lease, holder)
    if now + lease < ends then
        redis.call(ARGV[6], KEYS[3], ARGV[5])
    end
elseif ends < now + lease then
    redis.call('zadd', KEYS[2], now + lease, holder)
end
for i = 1, 2 do
    if redis.call('pttl', KEYS[i]) < lease then
        redis.call('pexpire', KEYS[i], lease)
    end
end
return 1
