-- Release one hold of a reentrant lock. Safe to retry: the caller sends the hold count
-- it believes it has, so a repeated call for the same release does not release twice.
--
-- KEYS[1]  lock hash: field = holder id, value = hold count
-- KEYS[2]  the lock's wake-up channel
-- ARGV[1]  holder id
-- ARGV[2]  the holder's hold count before this release, as the caller knows it
-- ARGV[3]  message published when the lock becomes free
-- ARGV[4]  publish command: 'publish', or 'spublish' (sharded pub/sub, Redis 7 cluster)
--
-- Returns  the holder's hold count after the release (0 = lock freed and waiters notified);
--          when the count is already below ARGV[2] (this release was applied by an earlier,
--          unanswered call) nothing changes and the current count is returned;
--          -1 when the holder holds nothing (its lease expired or the lock was deleted)
local count = tonumber(redis.call('hget', KEYS[1], ARGV[1]))
if count == nil then
    return -1
end
if count < tonumber(ARGV[2]) then
    return count
end
count = redis.call('hincrby', KEYS[1], ARGV[1], -1)
if count > 0 then
    return count
end
redis.call('del', KEYS[1])
redis.call(ARGV[4], KEYS[2], ARGV[3])
return 0
