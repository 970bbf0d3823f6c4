-- Hand a reentrant lock from its holder straight to a waiter of the same client, in one
-- round trip and without ever freeing it: used when a thread releases its last hold while
-- another thread of the same JVM waits for the lock. The receiver's hold is a new one: nothing
-- of the released hold is kept for it (no '#token': a later fenced re-entry takes a new one); the
-- lock's '#client' (the same) and '#wanted' stay (see lock.lua).
-- Exactly once, like unlock.lua: the released hold's answer key (see release_answer.lua) says the
-- hand-off happened, so the same call run again answers "handed over before" while the receiver
-- still has its hold, and changes nothing else; a release of the released hold sent again reads
-- the same key. A refused hand-off leaves no answer: the releasing holder then releases the hold
-- the ordinary way, under the same key.
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
--          2   handed over before, by an earlier run of this same call, and the receiver still
--              has that hold (its lease is lengthened to ARGV[5] from now if shorter, as a
--              re-run of lock.lua does)
--          3   that hold was released before: by unlock.lua, or handed over to a receiver whose
--              hold is gone since (its lease ran out): nothing is handed over now
--          0   the releasing holder holds it more than once, or not by that hold: nothing changed
--          -1  the releasing holder holds nothing (its lease expired or the lock was deleted),
--              now or when an earlier run of this call looked
local answered = redis.call('get', KEYS[2])
if answered == 'handed' then
    if redis.call('hexists', KEYS[1], '#' .. ARGV[4]) == 0 then
        return 3
    end
    if redis.call('pttl', KEYS[1]) < tonumber(ARGV[5]) then
        redis.call('pexpire', KEYS[1], ARGV[5])
    end
    return 2
elseif answered then
    return string.sub(answered, 1, 3) == '-1:' and -1 or 3
end
local count = redis.call('hget', KEYS[1], ARGV[1])
if not count then
    redis.call('set', KEYS[2], '-1:0', 'px', ARGV[6])
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
