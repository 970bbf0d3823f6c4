-- Read what is left of one hold's lease, for a holder about to take a step it cannot undo: Redis
-- is asked, never the client's books. Reads only. Serves every hash layout: the reentrant one
-- (lock.lua, fair.lua), where a hold's marker '#<hold id>' is 1, and the read-write one
-- (rw_lock.lua) and the semaphore's (sem_acquire.lua), where the marker names the hold's field or
-- holder and a reader's or a semaphore holder's hold has a lease of its own in a sorted set, by
-- the server's clock.
--
-- KEYS[1]  lock hash
-- KEYS[2]  read-write locks and semaphores only: the sorted set of own leases (member = holder
--          id, score = end of its lease in server ms)
-- ARGV[1]  a hold id of the holder's
-- ARGV[2]  read-write locks and semaphores only: what the hold's marker holds, 'r:<holder>' (a
--          reader, a semaphore holder) or 'w:<holder>' (a writer)
--
-- Returns  the hold's lease left in milliseconds (0 when it ends within the millisecond);
--          -1 if it has no expiry; -2 if Redis no longer has that hold
local marker = redis.call('hget', KEYS[1], '#' .. ARGV[1])
if not marker or (ARGV[2] ~= nil and marker ~= ARGV[2]) then
    return -2
end
local left = redis.call('pttl', KEYS[1])
if ARGV[2] ~= nil and string.sub(ARGV[2], 1, 2) == 'r:' then
    local time = redis.call('time')
    local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
    local ends = redis.call('zscore', KEYS[2], string.sub(ARGV[2], 3))
    if not ends or tonumber(ends) <= now then
        return -2
    end
    local reader = tonumber(ends) - now
    if left < 0 or reader < left then
        left = reader
    end
end
return left
