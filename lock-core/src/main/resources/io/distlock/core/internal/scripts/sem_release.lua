-- Give back one permit of a semaphore: the one with the given hold id (see sem_acquire.lua).
-- Exactly once, like unlock.lua: the release keeps its answer in the semaphore's answer book for
-- a while (release_answer.lua, prepended to this script), so the same release run again answers
-- as its first run did and changes nothing. Every permit given back wakes one waiter per client.
-- A holder whose lease ended but whom no acquisition removed yet still has its permits: nobody
-- took them meanwhile, so they are given back as if still held.
--
-- KEYS[1]  semaphore hash (see sem_acquire.lua)
-- KEYS[2]  leases sorted set
-- KEYS[3]  the semaphore's wake-up channel
-- KEYS[4]  the semaphore's answer book (see release_answer.lua)
-- KEYS[5]  the semaphore's previous answer book
-- ARGV[1]  holder id
-- ARGV[2]  hold id of the permit to give back
-- ARGV[3]  message published to waiters
-- ARGV[4]  publish command: 'publish', or 'spublish' (sharded pub/sub, Redis 7 cluster)
-- ARGV[5]  how long the answer book lives after a write, in milliseconds
-- ARGV[6]  hold ids whose release answers the client has read, separated by spaces (may be
--          empty): deleted from the book
--
-- Returns  as unlock.lua: {1, count} given back now, count = the holder's permits left;
--          {2, count} given back before, by an earlier run of this release; {0, count} that
--          permit is not there, nothing changed; {-1, 0} the holder holds nothing (its lease
--          ended or the semaphore was cleared); {-2, 0} it held nothing when an earlier run of
--          this release looked
local answers = answers_of(KEYS[4], KEYS[5], ARGV[2], ARGV[5], ARGV[6])
local found = redis.call('hmget', KEYS[1], ARGV[1], '#' .. ARGV[2])
if not found[1] then
    return not_here(answers, nil)
end
if found[2] ~= 'r:' .. ARGV[1] then
    return not_here(answers, found[1])
end
redis.call('hdel', KEYS[1], '#' .. ARGV[2])
local count = redis.call('hincrby', KEYS[1], ARGV[1], -1)
if count == 0 then
    redis.call('hdel', KEYS[1], ARGV[1])
    redis.call('zrem', KEYS[2], ARGV[1])
end
if redis.call('hincrby', KEYS[1], '#used', -1) <= 0 then
    redis.call('del', KEYS[1], KEYS[2])  -- the last permit: the state, count included, goes
end
redis.call(ARGV[4], KEYS[3], ARGV[3])
return remember_release(answers, 1, count)
