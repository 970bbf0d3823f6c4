-- Delete a lock whoever holds it, and wake its waiters. Each call has an id of its own and keeps
-- its answer under a key of that id for a while: the same call run again (Lettuce sends a command
-- again after a reconnect when its answer was lost) gives the first run's answer and deletes
-- nothing, since the lock may belong to a later holder by then.
--
-- KEYS[1]  lock hash
-- KEYS[2]  the lock's wake-up channel
-- KEYS[3]  this call's answer key (in the lock's slot)
-- KEYS[4]  optional: another key of the lock to delete with it (a read-write lock's readers)
-- ARGV[1]  message published when the lock was deleted
-- ARGV[2]  publish command: 'publish', or 'spublish' (sharded pub/sub, Redis 7 cluster)
-- ARGV[3]  how long the answer key is kept, in milliseconds
--
-- Returns  1 when this call deleted a lock, 0 when there was none
local answered = redis.call('get', KEYS[3])
if answered then
    return tonumber(answered)
end
local deleted = redis.call('del', KEYS[1])
if deleted == 1 then
    if KEYS[4] then
        redis.call('del', KEYS[4])
    end
    redis.call(ARGV[2], KEYS[2], ARGV[1])
end
redis.call('set', KEYS[3], deleted, 'px', ARGV[3])
return deleted
