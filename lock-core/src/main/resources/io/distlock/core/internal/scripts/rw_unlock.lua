-- Release one hold of one half of a read-write lock: the one with the given hold id (see
-- rw_lock.lua). Exactly once, like unlock.lua: the release keeps its answer in the lock's answer
-- book for a while (release_answer.lua, prepended to this script), so the same release run
-- again answers as its first run did and changes nothing. Waiters are woken when the lock becomes free, and when a writer that downgraded leaves
-- only read holds (readers may come in then): the message asks every local waiter to look, since
-- many readers may get in at once. Readers whose own lease ended do not count; rw_lock.lua
-- removes them.
--
-- KEYS[1]  lock hash (see rw_lock.lua)
-- KEYS[2]  readers sorted set
-- KEYS[3]  the lock's wake-up channel
-- KEYS[4]  the lock's answer book (see release_answer.lua)
-- KEYS[5]  the lock's previous answer book
-- ARGV[1]  holder id
-- ARGV[2]  hold id of the hold to release
-- ARGV[3]  'read' or 'write'
-- ARGV[4]  message published to waiters
-- ARGV[5]  publish command: 'publish', or 'spublish' (sharded pub/sub, Redis 7 cluster)
-- ARGV[6]  how long the answer book lives after a write, in milliseconds
-- ARGV[7]  hold ids whose release answers the client has read, separated by spaces (may be
--          empty): deleted from the book
--
-- Returns  as unlock.lua: {1, count} released now, count = the holder's hold count of this half
--          left (0 = released); {2, count} released before by an earlier run of this release;
--          {0, count} that hold is not there, nothing changed; {-1, 0} the holder holds nothing
--          of this half (its lease ended or the lock was deleted); {-2, 0} it held nothing when
--          an earlier run of this release looked
local answers = answers_of(KEYS[4], KEYS[5], ARGV[2], ARGV[6], ARGV[7])
local field = (ARGV[3] == 'read' and 'r:' or 'w:') .. ARGV[1]
local count = redis.call('hget', KEYS[1], field)
if not count then
    return not_here(answers, nil)
end
local marker = '#' .. ARGV[2]
if redis.call('hget', KEYS[1], marker) ~= field then
    return not_here(answers, count)
end
redis.call('hdel', KEYS[1], marker)
count = redis.call('hincrby', KEYS[1], field, -1)
if count > 0 then
    return remember_release(answers, 1, count)
end
redis.call('hdel', KEYS[1], field)
if ARGV[3] == 'read' then
    redis.call('zrem', KEYS[2], ARGV[1])
end
-- Readers whose own lease ended (their process died) do not count.
local time = redis.call('time')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local readers = redis.call('zcount', KEYS[2], '(' .. now, '+inf')
if ARGV[3] == 'read' then
    if readers > 0 or redis.call('hget', KEYS[1], 'mode') == 'write' then
        return remember_release(answers, 1, 0)  -- other readers, or the writer that downgraded, still hold it
    end
elseif readers > 0 then
    -- The writer downgraded: only read holds are left, so readers may come in.
    redis.call('hset', KEYS[1], 'mode', 'read')
    redis.call(ARGV[5], KEYS[3], ARGV[4])
    return remember_release(answers, 1, 0)
end
redis.call('del', KEYS[1], KEYS[2])
redis.call(ARGV[5], KEYS[3], ARGV[4])
return remember_release(answers, 1, 0)
