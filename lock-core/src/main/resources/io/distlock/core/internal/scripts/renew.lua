-- Renew the leases of many held locks in one call (the watchdog's batch). A lease is renewed
-- only while the hold the watchdog keeps is there (its hold id, see lock.lua): a hold of the
-- same holder taken since with a lease of its own is never stretched to the watchdog's lease,
-- and a longer lease set by a re-entry is never shortened.
-- All keys of one call must live in one cluster slot.
--
-- KEYS[i]    lock hash of the i-th lock
-- ARGV[1]    new lease in milliseconds
-- ARGV[2]    the holds' hold ids, the i-th for KEYS[i], separated by single spaces (hold ids
--            contain none): one argument instead of one per hold, which the client encodes
--            thousands of times per round
--
-- Returns    array, one entry per key: 1 = lease renewed, 0 = that hold is gone
local renewed = {}
local i = 0
for hold_id in string.gmatch(ARGV[2], '[^ ]+') do
    i = i + 1
    if redis.call('hexists', KEYS[i], '#' .. hold_id) == 1 then
        if redis.call('pttl', KEYS[i]) < tonumber(ARGV[1]) then
            redis.call('pexpire', KEYS[i], ARGV[1])
        end
        renewed[i] = 1
    else
        renewed[i] = 0
    end
end
return renewed
