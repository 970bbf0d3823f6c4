-- Acquire, or re-enter, a reentrant lock. Safe to repeat: the caller sends the hold count it
-- knows, so an attempt that ran although its caller saw it fail (timeout) and is then tried
-- again does not leave an extra hold behind.
--
-- KEYS[1]  lock hash: field = holder id, value = hold count
-- ARGV[1]  lease in milliseconds
-- ARGV[2]  holder id
-- ARGV[3]  the holder's hold count before this acquisition, as the caller knows it (0 = none)
--
-- Returns  {1, holdCount}  acquired; holdCount is 1 for a first hold, ARGV[3] + 1 when re-entering
--          {0, ttlMillis}  held by another holder; ttlMillis is the hash's remaining time to live
-- A first hold sets the lease; re-entering never shortens the remaining lease.
if redis.call('exists', KEYS[1]) == 0 then
    redis.call('hset', KEYS[1], ARGV[2], 1)
    redis.call('pexpire', KEYS[1], ARGV[1])
    return {1, 1}
end
if redis.call('hexists', KEYS[1], ARGV[2]) == 1 then
    local count = tonumber(ARGV[3]) + 1
    redis.call('hset', KEYS[1], ARGV[2], count)
    if redis.call('pttl', KEYS[1]) < tonumber(ARGV[1]) then
        redis.call('pexpire', KEYS[1], ARGV[1])
    end
    return {1, count}
end
return {0, redis.call('pttl', KEYS[1])}
