-- Acquire, or re-enter, a reentrant lock (fenced when a fence counter is given). Every
-- acquisition carries a hold id of its own, kept as a marker field ('#' .. id) beside the
-- holder's count while that hold lasts. That makes each acquisition a thing of its own: running
-- the same attempt twice (a command sent again after a reconnect) counts it once, and
-- unlock.lua given that id takes back exactly this hold, never another hold of the same holder,
-- even when one holder's acquisitions overlap.
--
-- A lock a client yielded to the other clients (unlock.lua) is a hash with only the field
-- '#yield' = that client's id, for a short lease: free for any other client, still taken for
-- the yielding one, whose attempts are answered as if held until another client takes it or the
-- yield expires. A first hold notes its client in '#client'; an attempt of another client that
-- finds the lock held notes its own in '#wanted', which tells a yielding release that a waiter of
-- another client asked for the lock. (Hold ids always contain a '.', so '#yield', '#client',
-- '#wanted' and '#token' are never a hold's marker.)
--
-- KEYS[1]  lock hash: field = holder id, value = hold count; '#<hold id>' = 1 per hold;
--          '#token' = the hold's fencing token, once a fenced acquisition took one; '#client' and
--          '#wanted' (see above)
-- KEYS[2]  optional, fenced locks only: the lock's fence counter (no expiry). Every new hold
--          takes its next value, so tokens increase strictly across all holders, clients and
--          client restarts, and keeps it in '#token' for its re-entries. A hold begun without a
--          token (by a lock of another kind under the same name) takes the next value at its
--          first fenced re-entry: the counter's current value belongs to an earlier hold.
-- ARGV[1]  lease in milliseconds
-- ARGV[2]  holder id
-- ARGV[3]  this acquisition's hold id (unique)
-- ARGV[4]  '1' when the caller re-enters a hold it knows it has, else '0'
-- ARGV[5]  the caller's client id (a lock this client yielded stays taken for it; noted in
--          '#wanted' when the lock is held)
--
-- Returns  {1, holdCount, token}  acquired; holdCount is the holder's count with this hold;
--                                 token is the hold's fencing token (0 unfenced)
--          {0, ttlMillis}          held by another holder, or yielded by the caller's client;
--                                 ttlMillis is the hash's remaining TTL
--          {-2}                    a re-entry, but the holder holds nothing: its lease was lost
-- A first hold sets the lease; re-entering never shortens the remaining lease.
local lease, holder, marker = tonumber(ARGV[1]), ARGV[2], '#' .. ARGV[3]

-- The current hold's fencing token (0 unfenced): the one it took, or the counter's next value
-- for a hold that took none yet.
local function token()
    if not KEYS[2] then
        return 0
    end
    local kept = redis.call('hget', KEYS[1], '#token')
    if kept then
        return tonumber(kept)
    end
    local taken = redis.call('incr', KEYS[2])
    redis.call('hset', KEYS[1], '#token', taken)
    return taken
end

local function first_hold()
    redis.call('hset', KEYS[1], holder, 1, marker, 1, '#client', ARGV[5])
    redis.call('pexpire', KEYS[1], lease)
    return {1, 1, token()}
end

if redis.call('exists', KEYS[1]) == 0 then
    if ARGV[4] == '1' then
        return {-2}
    end
    return first_hold()
end
local count = redis.call('hget', KEYS[1], holder)
if not count then
    if ARGV[4] == '1' then
        return {-2}
    end
    local yielder = redis.call('hget', KEYS[1], '#yield')
    if yielder and yielder ~= ARGV[5] then
        redis.call('del', KEYS[1])
        return first_hold()
    end
    local wanted = redis.call('hmget', KEYS[1], '#client', '#wanted')
    if wanted[1] ~= ARGV[5] and wanted[2] ~= ARGV[5] then
        -- Only a hint: a server that refuses writes (out of memory, too few replicas) still
        -- answers "held" rather than fail the attempt.
        redis.pcall('hset', KEYS[1], '#wanted', ARGV[5])
    end
    return {0, redis.call('pttl', KEYS[1])}
end
if redis.call('hsetnx', KEYS[1], marker, 1) == 1 then
    count = redis.call('hincrby', KEYS[1], holder, 1)
    if redis.call('pttl', KEYS[1]) < lease then
        redis.call('pexpire', KEYS[1], lease)
    end
end
return {1, tonumber(count), token()}
