-- Read a semaphore's permits, and change its permit count if asked. Holders whose lease ended are
-- left out (sem_acquire.lua removes them). A raised count wakes every waiter to look again.
--
-- KEYS[1]  semaphore hash (see sem_acquire.lua)
-- KEYS[2]  leases sorted set
-- KEYS[3]  the semaphore's wake-up channel
-- ARGV[1]  the new permit count, or '' to only read
-- ARGV[2]  message published to waiters when the count is raised
-- ARGV[3]  publish command: 'publish', or 'spublish' (sharded pub/sub, Redis 7 cluster)
--
-- Returns  {permits, used}: the count stored before this call (0: no permit is held, so none is
--          stored, and the next grant stores its own), and the permits held by live holders
local time = redis.call('time')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local used = 0
for _, holder in ipairs(redis.call('zrangebyscore', KEYS[2], '(' .. now, '+inf')) do
    used = used + tonumber(redis.call('hget', KEYS[1], holder) or '0')
end
if used == 0 then
    return {0, 0}
end
local permits = tonumber(redis.call('hget', KEYS[1], '#permits'))
if ARGV[1] ~= '' then
    redis.call('hset', KEYS[1], '#permits', ARGV[1])
    if tonumber(ARGV[1]) > permits then
        redis.call(ARGV[3], KEYS[3], ARGV[2])
    end
end
return {permits, used}
