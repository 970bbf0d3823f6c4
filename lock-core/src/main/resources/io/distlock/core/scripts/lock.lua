-- Acquire, or re-enter, a reentrant lock (fenced when a fence counter is given). Safe to
-- repeat: the caller sends the hold count it knows, so an attempt that ran although its caller
-- saw it fail (timeout) and is then tried again does not leave an extra hold behind.
--
-- KEYS[1]  lock hash: field = holder id, value = hold count
-- KEYS[2]  optional, fenced locks only: the lock's fence counter (no expiry). Every new hold
--          takes its next value, so tokens increase strictly across all holders, clients and
--          client restarts; while the lock is held nobody else takes one, so the counter's
--          current value is the current hold's token.
-- ARGV[1]  lease in milliseconds
-- ARGV[2]  holder id
-- ARGV[3]  the holder's hold count before this acquisition, as the caller knows it (0 = none)
--
-- Returns  {1, holdCount, token}  acquired; holdCount is 1 for a first hold, ARGV[3] + 1 when
--                                 re-entering; token is the hold's fencing token (0 unfenced)
--          {0, ttlMillis}          held by another holder; ttlMillis is the hash's remaining TTL
-- A first hold sets the lease; re-entering never shortens the remaining lease.
if redis.call('exists', KEYS[1]) == 0 then
    local token = 0
    if KEYS[2] then
        token = redis.call('incr', KEYS[2])
    end
    redis.call('hset', KEYS[1], ARGV[2], 1)
    redis.call('pexpire', KEYS[1], ARGV[1])
    return {1, 1, token}
end
if redis.call('hexists', KEYS[1], ARGV[2]) == 1 then
    local count = tonumber(ARGV[3]) + 1
    redis.call('hset', KEYS[1], ARGV[2], count)
    if redis.call('pttl', KEYS[1]) < tonumber(ARGV[1]) then
        redis.call('pexpire', KEYS[1], ARGV[1])
    end
    local token = 0
    if KEYS[2] then
        token = tonumber(redis.call('get', KEYS[2]))
    end
    return {1, count, token}
end
return {0, redis.call('pttl', KEYS[1])}
