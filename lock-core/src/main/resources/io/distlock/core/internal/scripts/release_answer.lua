-- A library, not a script: prepended to the release scripts (unlock.lua, rw_unlock.lua, fair.lua
-- and hand_off.lua, see Scripts). A release keeps its answer in the lock's answer book for a
-- while, so that the same release run again (Lettuce sends a command again after a reconnect
-- when its answer was lost; the engine sends an unconfirmed release again) answers as its first
-- run did and changes nothing. A run that finds the hold it releases still there is the first:
-- only a run that does not ({not_here}) looks for an earlier one, so the common release reads no
-- answer.
--
-- The answer book is a hash in the lock's slot, field = hold id, value = one integer,
-- count * 4 + kind: count the holder's hold count after the release, kind 0 (released), 1 (that
-- hold was not there), 2 (the holder held nothing; count 0) or 3 (hand_off.lua handed the lock
-- over from that hold; count 0). It lives at least 'ttl' ms after its last write, the longest
-- 'ttl' of the clients that wrote to it.
--
-- An answer is needed only until the client has read one: Lettuce sends a command again only if
-- no answer came, and the engine sends a release again only while it has none. So each release
-- also carries the hold ids whose answers its client has read since ('acknowledged', separated
-- by spaces), and deletes them: the book of a lock that is locked and released over and over
-- holds one or two answers, not one per release. Answers nobody acknowledges (a client that
-- died, a late copy of a release that was answered already) are dropped by age: a book of more
-- than BOOK_SIZE answers becomes the previous book (the second answer-book key) if there is none,
-- and a previous book lives at least 'ttl' ms after the last answer written into it, so no answer is
-- dropped sooner than 'ttl' ms after it was written. Answers are looked up in both books.
local RELEASED, NOT_THERE, HELD_NOTHING, HANDED = 0, 1, 2, 3
local BOOK_SIZE = 64

-- The kind of answer a book holds (see above), from its value.
local function answer_kind(answered)
    return tonumber(answered) % 4
end

-- The answers of one release call: its lock's answer book and previous book (keys), the hold it
-- releases, how long the book lives after a write (ms), and the hold ids whose answers its client
-- has read (separated by spaces; may be empty).
local function answers_of(book, previous_book, hold_id, ttl, acknowledged)
    return {book = book, previous_book = previous_book, hold_id = hold_id, ttl = ttl,
            acknowledged = acknowledged}
end

-- The answer an earlier run of this release wrote, or nil.
local function earlier_answer(answers)
    return redis.call('hget', answers.book, answers.hold_id)
            or redis.call('hget', answers.previous_book, answers.hold_id)
end

-- Writes this release's answer (count * 4 + kind) into the book, and deletes the acknowledged
-- ones after it (before, they could empty the book, which Redis would then delete and create
-- again). Only a write that leaves the book larger than it was can make it too large: only then
-- is its size looked at.
local function write_answer(answers, answer)
    redis.call('hset', answers.book, answers.hold_id, answer)
    local forgotten = 0
    if answers.acknowledged ~= '' then
        local ids = {}
        for id in string.gmatch(answers.acknowledged, '%S+') do
            ids[#ids + 1] = id
        end
        forgotten = redis.call('hdel', answers.book, unpack(ids))
    end
    -- Clients may keep answers for different times (their command timeouts differ): a book's
    -- life is only ever lengthened, to a quarter more than asked, so that the releases that
    -- follow mostly find it long enough.
    local ttl = tonumber(answers.ttl)
    if redis.call('pttl', answers.book) < ttl then
        redis.call('pexpire', answers.book, ttl + math.floor(ttl / 4))
    end
    if forgotten == 0 and redis.call('hlen', answers.book) > BOOK_SIZE
            and redis.call('exists', answers.previous_book) == 0 then
        redis.call('rename', answers.book, answers.previous_book)
    end
end

-- Returns what a release run again answers: {2, count} released before, {0, count} that hold was
-- not there, {-2, 0} the holder held nothing when the earlier run looked; nil when no earlier run
-- of it is remembered.
local function remembered_release(answers)
    local answered = earlier_answer(answers)
    if not answered then
        return nil
    end
    local kind, count = answer_kind(answered), math.floor(tonumber(answered) / 4)
    if kind == RELEASED or kind == HANDED then
        return {2, count}
    end
    return {kind == HELD_NOTHING and -2 or 0, count}
end

-- Remembers this release's answer, and returns it as the reply {code, count}: code 1 released
-- now, 0 that hold was not there, -1 the holder held nothing.
local function remember_release(answers, code, count)
    local kind = code == 1 and RELEASED or (code == 0 and NOT_THERE or HELD_NOTHING)
    write_answer(answers, count * 4 + kind)
    return {code, count}
end

-- What a release answers when the hold it releases is not there: what an earlier run of it
-- answered, if one is remembered (it released the hold, or found it missing too); else {0, count}
-- if the holder still has other holds (count, from the lock), {-1, 0} if it holds nothing (nil).
-- Either answer is remembered in turn.
local function not_here(answers, count)
    local again = remembered_release(answers)
    if again then
        return again
    end
    if count then
        return remember_release(answers, 0, tonumber(count))
    end
    return remember_release(answers, -1, 0)
end
