-- Renew the leases of many held locks in one call (the watchdog's batch).
-- All keys of one call must live in one cluster slot.
--
-- KEYS[i]    lock hash of the i-th lock
-- ARGV[1]    new lease in milliseconds
-- ARGV[i+1]  holder id expected in KEYS[i]
--
-- Returns    array, one entry per key: 1 = lease renewed, 0 = the holder no longer holds it
local renewed = {}
for i = 1, #KEYS do
    if redis.call('hexists', KEYS[i], ARGV[i + 1]) == 1 then
        redis.call('pexpire', KEYS[i], ARGV[1])
        renewed[i] = 1
    else
        renewed[i] = 0
    end
end
return renewed
