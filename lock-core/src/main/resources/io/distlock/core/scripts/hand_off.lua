-- Hand a reentrant lock from its holder straight to a waiter of the same client, in one
-- round trip and without ever freeing it: used when a thread releases its last hold while
-- another thread of the same JVM waits for the lock. The receiver's hold is a new one: nothing
-- of the released hold is kept for it (no '#token': a later fenced re-entry takes a new one); the
-- lock's '#client' (the same) and '#wanted' stay (see lock.lua).
-- Exactly once, like unlock.lua: the released hold's answer key says the hand-off happened, so the
-- same call run again answers "handed over before" and changes nothing, and so does a release of
-- the released hold sent again (unlock.lua reads the same key, 'handed' counting as 0 left).
--
-- KEYS[1]  lock hash: field = holder id, value = hold count; '#<hold id>' per hold; '#token'
--          (see lock.lua)
-- KEYS[2]  the released hold's answer key (see unlock.lua)
-- ARGV[1]  holder id releasing the lock
-- ARGV[2]  hold id of the hold it releases
-- ARGV[3]  holder id receiving it (with hold count 1)
-- ARGV[4]  the receiver's hold id
-- ARGV[5]  the receiver's lease in milliseconds
-- ARGV[6]  how long the answer key is kept, in milliseconds
--
-- Returns  1   handed over now
--          2   handed over before, by an earlier run of this same call: the receiver holds it,
--              or held it
--          3   that hold was released before, by unlock.lua: nothing was handed over
--          0   the releasing holder holds it more than once, or not by that hold: nothing changed
--          -1  the releasing holder holds nothing (its lease expired or the lock was deleted)
local answered = redis.call('get', KEYS[2])
if answered then
    return answered == 'handed' and 2 or 3
end
local count = redis.call('hget', KEYS[1], ARGV[1])
if not count then
    return -1
end
if tonumber(count) ~= 1 or redis.call('hexists', KEYS[1], '#' .. ARGV[2]) == 0 then
    return 0
end
redis.call('hdel', KEYS[1], ARGV[1], '#' .. ARGV[2], '#token')
redis.call('hset', KEYS[1], ARGV[3], 1, '#' .. ARGV[4], 1)
redis.call('pexpire', KEYS[1], ARGV[5])
redis.call('set', KEYS[2], 'handed', 'px', ARGV[6])
return 1
