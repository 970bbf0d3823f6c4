-- Renew the leases of many held locks in one call (the watchdog's batch). A lease is renewed
-- only while the hold the watchdog keeps is there (its hold id, see lock.lua): a hold of the
-- same holder taken since with a lease of its own is never stretched to the watchdog's lease,
-- and a longer lease set by a re-entry is never shortened.
-- All keys of one call must live in one cluster slot.
--
-- KEYS[i]    lock hash of the i-th lock
-- ARGV[1]    new lease in milliseconds
-- ARGV[i+1]  a hold id of the i-th hold
--
-- Returns    array, one entry per key: 1 = lease renewed, 0 = that hold is gone
local renewed = {}
for i = 1, #KEYS do
    if redis.call('hexists', KEYS[i], '#' .. ARGV[i + 1]) == 1 then
        if redis.call('pttl', KEYS[i]) < tonumber(ARGV[1]) then
            redis.call('pexpire', KEYS[i], ARGV[1])
        end
        renewed[i] = 1
    else
        renewed[i] = 0
    end
end
return renewed
