-- A library, not a script: prepended to the release scripts (unlock.lua, rw_unlock.lua and
-- fair.lua, see Scripts). A release keeps its answer under a key of the hold it ends (the answer
-- key, in the lock's slot) for a while, so that the same release run again (Lettuce sends a
-- command again after a reconnect when its answer was lost; the engine sends an unconfirmed
-- release again) answers as its first run did and changes nothing. A run that finds the hold it
-- releases still there is the first: only a run that does not ({not_here}) looks for an earlier
-- one, so the common release reads no answer key.
--
-- An answer key holds '<code>:<count>', code 1 (released), 0 (that hold was not there) or -1 (the
-- holder held nothing), count the holder's hold count after it; or 'handed' (hand_off.lua handed
-- the lock over from that hold).

-- Returns what a release run again answers: {2, count} released before, {0, count} that hold was
-- not there, {-2, 0} the holder held nothing when the earlier run looked; nil when no earlier run
-- of it is remembered.
local function remembered_release(answer_key)
    local answered = redis.call('get', answer_key)
    if not answered then
        return nil
    end
    if answered == 'handed' then
        return {2, 0}
    end
    local code, count = string.match(answered, '^(-?%d+):(%d+)$')
    code = tonumber(code)
    return {code == 1 and 2 or (code == -1 and -2 or 0), tonumber(count)}
end

-- Remembers a release's answer for ttl milliseconds, and returns it as the reply {code, count}.
local function remember_release(answer_key, ttl, code, count)
    redis.call('set', answer_key, code .. ':' .. count, 'px', ttl)
    return {code, count}
end

-- What a release answers when the hold it releases is not there: what an earlier run of it
-- answered, if one is remembered (it released the hold, or found it missing too); else {0, count}
-- if the holder still has other holds (count, from the lock), {-1, 0} if it holds nothing (nil).
-- Either answer is remembered in turn.
local function not_here(answer_key, ttl, count)
    local again = remembered_release(answer_key)
    if again then
        return again
    end
    if count then
        return remember_release(answer_key, ttl, 0, tonumber(count))
    end
    return remember_release(answer_key, ttl, -1, 0)
end
