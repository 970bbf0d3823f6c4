-- Acquire, or re-enter, a reentrant lock.
--
-- KEYS[1]  lock hash: field = holder id, value = hold count
-- ARGV[1]  lease in milliseconds (the hash expires after it)
-- ARGV[2]  holder id
--
-- Returns  {1, holdCount}  acquired; holdCount is the holder's count after this call (1 = first hold)
--          {0, ttlMillis}  held by another holder; ttlMillis is the hash's remaining time to live
local count
if redis.call('exists', KEYS[1]) == 0 or redis.call('hexists', KEYS[1], ARGV[2]) == 1 then
    count = redis.call('hincrby', KEYS[1], ARGV[2], 1)
    redis.call('pexpire', KEYS[1], ARGV[1])
    return {1, count}
end
return {0, redis.call('pttl', KEYS[1])}
