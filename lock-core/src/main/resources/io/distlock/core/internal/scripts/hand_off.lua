-- Hand a reentrant lock from its holder straight to a waiter of the same client, in one
-- round trip and without ever freeing it: used when a thread releases its last hold while
-- another thread of the same JVM waits for the lock. The receiver's hold is a new one: nothing
-- of the released hold is kept for it (no '#token': a later fenced re-entry takes a new one); the
-- lock's '#client' (the same) and '#wanted' stay (see lock.lua).
-- Exactly once, like unlock.lua: the released hold's answer in the lock's answer book (see
-- release_answer.lua, which is prepended to this script) says the hand-off happened, so the same
-- call run again answers "handed over before" while the receiver still has its hold, and changes
-- nothing else; a release of the released hold sent again reads the same answer. A refused
-- hand-off leaves no answer: the releasing holder then releases the hold the ordinary way.
--
-- KEYS[1]  lock hash: field = holder id, value = hold count; '#<hold id>' per hold; '#token'
--          (see lock.lua)
-- KEYS[2]  the lock's answer book (see release_answer.lua)
-- KEYS[3]  the lock's previous answer book
-- ARGV[1]  holder id releasing the lock
-- ARGV[2]  hold id of the hold it releases
-- ARGV[3]  holder id receiving it (with hold count 1)
-- ARGV[4]  the receiver's hold id
-- ARGV[5]  the receiver's lease in milliseconds
-- ARGV[6]  how long the answer book lives after a write, in milliseconds
-- ARGV[7]  hold ids whose release answers the client has read, separated by spaces (may be
--          empty): deleted from the book
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
local answers = answers_of(KEYS[2], KEYS[3], ARGV[2], ARGV[6], ARGV[7])
local answered = earlier_answer(answers)
if answered and answer_kind(answered) == HANDED then
    if redis.call('hexists', KEYS[1], '#' .. ARGV[4]) == 0 then
        return 3
    end
    if redis.call('pttl', KEYS[1]) < tonumber(ARGV[5]) then
        redis.call('pexpire', KEYS[1], ARGV[5])
    end
    return 2
elseif answered then
    return answer_kind(answered) == HELD_NOTHING and -1 or 3
end
local count = redis.call('hget', KEYS[1], ARGV[1])
if not count then
    write_answer(answers, HELD_NOTHING)
    return -1
end
if tonumber(count) ~= 1 or redis.call('hexists', KEYS[1], '#' .. ARGV[2]) == 0 then
    return 0
end
redis.call('hdel', KEYS[1], ARGV[1], '#' .. ARGV[2], '#token')
redis.call('hset', KEYS[1], ARGV[3], 1, '#' .. ARGV[4], 1)
redis.call('pexpire', KEYS[1], ARGV[5])
write_answer(answers, HANDED)
return 1
