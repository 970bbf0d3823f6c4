-- Hand a reentrant lock from its holder straight to a waiter of the same client, in one
-- round trip and without ever freeing it: used when a thread releases its last hold while
-- another thread of the same JVM waits for the lock.
--
-- KEYS[1]  lock hash: field = holder id, value = hold count
-- ARGV[1]  holder id releasing the lock
-- ARGV[2]  holder id receiving it (with hold count 1)
-- ARGV[3]  the receiver's lease in milliseconds
--
-- Returns  1   handed over
--          0   the releasing holder holds it more than once: nothing changed
--          -1  the releasing holder holds nothing (its lease expired or the lock was deleted)
local count = tonumber(redis.call('hget', KEYS[1], ARGV[1]))
if count == nil then
    return -1
end
if count ~= 1 then
    return 0
end
redis.call('hdel', KEYS[1], ARGV[1])
redis.call('hset', KEYS[1], ARGV[2], 1)
redis.call('pexpire', KEYS[1], ARGV[3])
return 1
