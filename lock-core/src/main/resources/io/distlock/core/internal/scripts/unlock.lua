-- Release one hold of a reentrant lock: the one with the given hold id (see lock.lua). Exactly
-- once: the release keeps its answer in the lock's answer book (KEYS[3] and KEYS[4], see
-- release_answer.lua, which is prepended to this script) for a while, so the same release run
-- again (Lettuce sends a command again after a reconnect when its answer was lost; the engine
-- sends an unconfirmed release again) answers as the first run did, and changes nothing. A hold
-- id that is not there (an attempt that never ran, an undo already done) changes nothing either.
--
-- A release that frees the lock can instead, by ARGV[7]:
-- 'yield': yield it to the other clients. If a caller of another client found the lock held
--          ('#wanted', see lock.lua) and the release message reached a subscriber besides the
--          releasing client's own, a waiter of another client is woken, and the lock is kept for
--          it (see lock.lua) for ARGV[9] milliseconds. The releasing client's threads can then not
--          take the lock back before the woken waiter arrives, and the yield expires by itself if
--          that waiter is gone. A subscriber alone is no waiter: a monitor listening to every
--          channel, or a client whose wait ended and whose subscription lingers.
-- 'keep':  keep it taken, by nobody, for ARGV[8] more milliseconds (a job's minimum hold time):
--          the hash keeps only the field '#kept', which no acquisition takes (lock.lua). The
--          release message still goes out: a waiter that slept on the holder's lease looks again,
--          finds the lock kept, and sleeps until the keep ends.
--
-- KEYS[1]  lock hash: field = holder id, value = hold count; '#<hold id>' per hold; '#token' and
--          '#wanted' (lock.lua), which go with the hash when the last hold does
-- KEYS[2]  the lock's wake-up channel
-- KEYS[3]  the lock's answer book (see release_answer.lua)
-- KEYS[4]  the lock's previous answer book
-- ARGV[1]  holder id
-- ARGV[2]  hold id of the hold to release
-- ARGV[3]  message published when the lock becomes free
-- ARGV[4]  publish command: 'publish', or 'spublish' (sharded pub/sub, Redis 7 cluster)
-- ARGV[5]  how long the answer book lives after a write, in milliseconds
-- ARGV[6]  hold ids whose release answers the client has read, separated by spaces (may be
--          empty): deleted from the book
-- ARGV[7]  optional: 'yield' or 'keep'
-- ARGV[8]  'yield': the releasing client's id; 'keep': how long the lock stays taken, in ms (> 0)
-- ARGV[9]  'yield': how long the yield lasts at most, in milliseconds
-- ARGV[10] 'yield': subscribers of the channel that are the releasing client's own (0 or 1)
--
-- Returns  {1, count}  released now; count is the holder's hold count left (0 = lock freed, or
--                      kept, or yielded, as asked)
--          {2, count}  released before, by an earlier run of this same release (or handed over
--                      by hand_off.lua): what it left
--          {0, count}  that hold is not there (never taken, or taken back by an undo): nothing
--                      changed; count is the holder's hold count
--          {-1, 0}     the holder holds nothing (its lease expired or the lock was deleted)
--          {-2, 0}     the holder held nothing when an earlier run of this same release looked
local answers = answers_of(KEYS[3], KEYS[4], ARGV[2], ARGV[5], ARGV[6])
local found = redis.call('hmget', KEYS[1], ARGV[1], '#' .. ARGV[2])
local count = found[1]
if not count then
    return not_here(answers, nil)
end
if not found[2] then
    return not_here(answers, count)
end
if count ~= '1' then
    redis.call('hdel', KEYS[1], '#' .. ARGV[2])
    count = redis.call('hincrby', KEYS[1], ARGV[1], -1)
    return remember_release(answers, 1, count)
end
-- The holder's last hold: the lock goes, with the hold's marker.
local wanted = ARGV[7] == 'yield' and redis.call('hget', KEYS[1], '#wanted')
redis.call('del', KEYS[1])
if ARGV[7] == 'keep' then
    redis.call('hset', KEYS[1], '#kept', ARGV[1])
    redis.call('pexpire', KEYS[1], ARGV[8])
end
local receivers = redis.call(ARGV[4], KEYS[2], ARGV[3])
if ARGV[7] == 'yield' and wanted and wanted ~= ARGV[8] and receivers > tonumber(ARGV[10]) then
    redis.call('hset', KEYS[1], '#yield', ARGV[8])
    redis.call('pexpire', KEYS[1], ARGV[9])
end
return remember_release(answers, 1, 0)
