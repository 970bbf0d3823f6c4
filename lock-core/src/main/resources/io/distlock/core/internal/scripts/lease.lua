-- Give a held reentrant (or fenced) lock an explicit lease from now: a composite lock acquires its
-- components with the watchdog, so none runs out while it waits for the others, and once all are
-- held gives each its lease this way. Only while the hold is there (its hold id, see lock.lua): a
-- hold already gone is reported, never brought back. A lease made shorter wakes a waiter, which
-- slept as long as the longer lease would have lasted, to look again.
--
-- KEYS[1]  lock hash: field = holder id, value = hold count; '#<hold id>' per hold; '#token'
--          (see lock.lua)
-- KEYS[2]  the lock's wake-up channel
-- ARGV[1]  lease in milliseconds
-- ARGV[2]  hold id of a hold of the holder
-- ARGV[3]  '1': the lease is set exactly, if that hold is the holder's only one here (the
--          client's view covers one kind of lock; a lock of another kind under the same name,
--          e.g. a plain and a fenced lock, shares this hash and may hold it too, with a lease of
--          its own); '0': it is only lengthened (the holder held the lock before, and those holds
--          keep their lease)
-- ARGV[4]  message published to wake a waiter
-- ARGV[5]  publish command: 'publish', or 'spublish' (sharded pub/sub, Redis 7 cluster)
-- ARGV[6]  the holder id
--
-- Returns  1 lease set; 0 that hold is gone (its lease was lost)
if redis.call('hexists', KEYS[1], '#' .. ARGV[2]) == 0 then
    return 0
end
local lease, ttl = tonumber(ARGV[1]), redis.call('pttl', KEYS[1])
if ARGV[3] == '1' and redis.call('hget', KEYS[1], ARGV[6]) == '1' then
    redis.call('pexpire', KEYS[1], lease)
    if lease < ttl then
        redis.call(ARGV[5], KEYS[2], ARGV[4])
    end
elseif ttl < lease then
    redis.call('pexpire', KEYS[1], lease)
end
return 1
