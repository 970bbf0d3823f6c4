-- Renew the leases of many read-write lock holds, or semaphore holders, in one call (the watchdog's
-- batch). A hold is renewed only while the hold the watchdog keeps is there (its hold id, whose
-- marker names the hold's field, see rw_lock.lua, or its holder, see sem_acquire.lua), and a
-- reader's or a semaphore holder's hold only while its own lease lasts; neither the hash nor such
-- an own lease is ever shortened (a re-entry may have set a longer one, as in renew.lua). All keys
-- of one call must live in one cluster slot.
--
-- KEYS[2i-1]  lock or semaphore hash of the i-th hold
-- KEYS[2i]    the sorted set of own leases of the i-th hold (readers, or a semaphore's holders)
-- ARGV[1]     new lease in milliseconds
-- ARGV[2i]    what the i-th hold's marker holds: 'r:<holder>' (a reader, a semaphore holder:
--             the holder's lease is its own, in KEYS[2i]) or 'w:<holder>' (a writer)
-- ARGV[2i+1]  a hold id of the i-th hold
--
-- Returns     array, one entry per hold: 1 = renewed, 0 = that hold is gone
local time = redis.call('time')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local lease = tonumber(ARGV[1])
local renewed = {}
for i = 1, #KEYS / 2 do
    local hash, readers, field = KEYS[2 * i - 1], KEYS[2 * i], ARGV[2 * i]
    local held = redis.call('hget', hash, '#' .. ARGV[2 * i + 1]) == field
    local reader = string.sub(field, 1, 2) == 'r:'
    if held and reader then
        local ends = redis.call('zscore', readers, string.sub(field, 3))
        held = ends ~= false and tonumber(ends) > now
        if held then
            if tonumber(ends) < now + lease then
                redis.call('zadd', readers, now + lease, string.sub(field, 3))
            end
            if redis.call('pttl', readers) < lease then
                redis.call('pexpire', readers, lease)
            end
        end
    end
    if held then
        if redis.call('pttl', hash) < lease then
            redis.call('pexpire', hash, lease)
        end
        renewed[i] = 1
    else
        renewed[i] = 0
    end
end
return renewed
