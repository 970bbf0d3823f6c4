-- Delete a lock whoever holds it, and wake its waiters.
--
-- KEYS[1]  lock hash
-- KEYS[2]  the lock's wake-up channel
-- KEYS[3]  optional: another key of the lock to delete with it (a read-write lock's readers)
-- ARGV[1]  message published when the lock was deleted
-- ARGV[2]  publish command: 'publish', or 'spublish' (sharded pub/sub, Redis 7 cluster)
--
-- Returns  1 when a lock was deleted, 0 when there was none
if redis.call('del', KEYS[1]) == 1 then
    if KEYS[3] then
        redis.call('del', KEYS[3])
    end
    redis.call(ARGV[2], KEYS[2], ARGV[1])
    return 1
end
return 0
