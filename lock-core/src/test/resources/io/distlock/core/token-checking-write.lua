-- A storage write guarded by a fencing token: refused when a newer token was seen before.
-- KEYS[1]: the stored record (a hash with fields 'token' and 'value')
-- ARGV[1]: the value to write
-- ARGV[2]: the writer's fencing token
-- Returns 1 if written (the token is at least the highest seen so far), 0 if refused.
local seen = tonumber(redis.call('hget', KEYS[1], 'token') or '0')
local token = tonumber(ARGV[2])
if token < seen then
    return 0
end
redis.call('hset', KEYS[1], 'token', ARGV[2], 'value', ARGV[1])
return 1
