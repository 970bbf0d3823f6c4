-- One page of a census of held locks (the watchdog benchmark): the keys of one SCAN page that
-- match a pattern, and the shortest remaining lease among them. The caller loops over the pages
-- until the cursor is back at "0". Single-server use only: SCAN sees the keys of one node.
--
-- KEYS       none (the keys are found by SCAN)
-- ARGV[1]    SCAN cursor, "0" for the first page
-- ARGV[2]    MATCH pattern, e.g. "lockbench:1a2b3c4d:watchdog:distlock:*"
-- ARGV[3]    COUNT hint of the page
--
-- Returns    array: [1] the next cursor ("0" = done), [2] keys found on this page,
--            [3] smallest PTTL among them in ms (-1 if one has no expiry; 0 when the page found none)
local page = redis.call('scan', ARGV[1], 'match', ARGV[2], 'count', ARGV[3])
local shortest = nil
for _, key in ipairs(page[2]) do
    local ttl = redis.call('pttl', key)
    if shortest == nil or ttl < shortest then
        shortest = ttl
    end
end
return {page[1], #page[2], shortest or 0}
