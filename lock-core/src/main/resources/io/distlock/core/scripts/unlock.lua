-- Release one hold of a reentrant lock: the one with the given hold id (see lock.lua). Safe to
-- retry, and exact: a hold id that is not there (an earlier run of this release took it, or it
-- names an attempt that never ran) changes nothing.
--
-- A release that frees the lock can instead, by ARGV[5]:
-- 'yield': yield it to the other clients. If the release message reached a subscriber besides
--          the releasing client's own, that is a waiter of another client, and the lock is kept
--          for it (see lock.lua) for ARGV[7] milliseconds. The releasing client's threads can then
--          not take the lock back before the woken waiter arrives, and the yield expires by
--          itself if that waiter is gone.
-- 'keep':  keep it taken, by nobody, for ARGV[6] more milliseconds (a job's minimum hold time):
--          the hash keeps only the field '#kept', which no acquisition takes (lock.lua), and no
--          release message goes out; waiters wake when its lease ends.
--
-- KEYS[1]  lock hash: field = holder id, value = hold count; '#<hold id>' per hold; '#token'
--          (lock.lua), which goes with the hash when the last hold does
-- KEYS[2]  the lock's wake-up channel
-- ARGV[1]  holder id
-- ARGV[2]  hold id of the hold to release
-- ARGV[3]  message published when the lock becomes free
-- ARGV[4]  publish command: 'publish', or 'spublish' (sharded pub/sub, Redis 7 cluster)
-- ARGV[5]  optional: 'yield' or 'keep'
-- ARGV[6]  'yield': the releasing client's id; 'keep': how long the lock stays taken, in ms (> 0)
-- ARGV[7]  'yield': how long the yield lasts at most, in milliseconds
-- ARGV[8]  'yield': subscribers of the channel that are the releasing client's own (0 or 1)
--
-- Returns  the holder's hold count after the release (0 = lock freed, or kept, as asked);
--          the current count, unchanged, when that hold is not there;
--          -1 when the holder holds nothing (its lease expired or the lock was deleted)
local count = redis.call('hget', KEYS[1], ARGV[1])
if not count then
    return -1
end
if redis.call('hdel', KEYS[1], '#' .. ARGV[2]) == 0 then
    return tonumber(count)
end
count = redis.call('hincrby', KEYS[1], ARGV[1], -1)
if count > 0 then
    return count
end
redis.call('del', KEYS[1])
if ARGV[5] == 'keep' then
    redis.call('hset', KEYS[1], '#kept', ARGV[1])
    redis.call('pexpire', KEYS[1], ARGV[6])
    return 0
end
local receivers = redis.call(ARGV[4], KEYS[2], ARGV[3])
if ARGV[5] == 'yield' and receivers > tonumber(ARGV[8]) then
    redis.call('hset', KEYS[1], '#yield', ARGV[6])
    redis.call('pexpire', KEYS[1], ARGV[7])
end
return 0
