"""The Lua scripts of the games' store (``store.py``), each on one game's or one date's hash
tag: reading a game, indexing it under its date, creating it, the action's compare-and-set and
sealing an unfinished game as its date's reveal reads it. KEYS[1] is a game's hash and KEYS[2]
its transcript, but for ``INDEX_GAME`` (the date's keys)."""

# A game's transcript goes back as one JSON array text (its items joined), not one reply item per
# entry: one string for the client to read and one JSON parse, whatever the game's length.
TRANSCRIPT_TEXT = "'[' .. table.concat(redis.call('LRANGE', KEYS[2], 0, -1), ',') .. ']'"

LOAD_GAME = """
local meta = redis.call('HGETALL', KEYS[1])
if #meta == 0 then return false end
return {meta, TRANSCRIPT}
""".replace("TRANSCRIPT", TRANSCRIPT_TEXT)

INDEX_GAME = """
if redis.call('EXISTS', KEYS[2]) == 1 and redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 0 then
  return 0
end
-- The date's format marker KEYS[3], set at its first game: ARGV[2] (the format new
-- dates start in), or '1' for a date whose sheets (KEYS[4..]) had games before the marker.
if redis.call('EXISTS', KEYS[3]) == 0 then
  local format = ARGV[2]
  for i = 4, #KEYS do
    if redis.call('EXISTS', KEYS[i]) == 1 then format = '1' end
  end
  redis.call('SET', KEYS[3], format)
end
redis.call('SADD', KEYS[1], ARGV[1])
return 1
"""

CREATE_GAME = """
local created = 0
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('HSET', KEYS[1], 'ruleset', ARGV[1], 'date', ARGV[2], 'player', ARGV[3],
             'name', ARGV[4], 'created_at', ARGV[5], 'state', ARGV[6])
  created = 1
elseif ARGV[4] ~= '' then
  redis.call('HSET', KEYS[1], 'name', ARGV[4])
end
return {created, redis.call('HGETALL', KEYS[1]), TRANSCRIPT}
""".replace("TRANSCRIPT", TRANSCRIPT_TEXT)

# The action's compare-and-set (replies: app/platform/cas.py). ARGV: 1 the expected version,
# 2 the entry, 3 the receipt or '', then 4 the game's state after the entry, 5 the
# state the action was computed from when a client's token claimed it ('' when the worker's own
# copy did, read from Redis), 6 '1' to have the game back on success (a worker that acted on a
# token holds no copy of it), 7 how many of the game's action limits to count (0 on a retry
# within the same request), then each limit's (amount, seconds); KEYS[3..] their counters,
# fixed windows under the game's hash tag. Every call that reaches a live, unsealed game counts,
# applied or not; past a limit, nothing is written.
APPEND_ACTION = """
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
if redis.call('HEXISTS', KEYS[1], 'sealed') == 1 then return 0 end
local wait = nil
for i = 1, tonumber(ARGV[7]) do
  local key, seconds = KEYS[2 + i], tonumber(ARGV[7 + 2 * i])
  local count = redis.call('INCR', key)
  if count == 1 then redis.call('EXPIRE', key, seconds) end
  if count > tonumber(ARGV[6 + 2 * i]) then
    local ttl = redis.call('TTL', key)
    if ttl < 1 then
      redis.call('EXPIRE', key, seconds)
      ttl = seconds
    end
    if wait == nil or ttl > wait then wait = ttl end
  end
end
if wait then return {-1, wait} end
if redis.call('LLEN', KEYS[2]) ~= tonumber(ARGV[1])
   or (ARGV[5] ~= '' and redis.call('HGET', KEYS[1], 'state') ~= ARGV[5]) then
  return {redis.call('HGETALL', KEYS[1]), TRANSCRIPT}
end
redis.call('RPUSH', KEYS[2], ARGV[2])
if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'receipt', ARGV[3]) end
redis.call('HSET', KEYS[1], 'state', ARGV[4])
if ARGV[6] == '1' then
  return {1, redis.call('HGETALL', KEYS[1]), TRANSCRIPT}
end
return 1
""".replace("TRANSCRIPT", TRANSCRIPT_TEXT)

SEAL_AND_READ_RECEIPT = """
local receipt = redis.call('HGET', KEYS[1], 'receipt')
if receipt then return receipt end
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HSET', KEYS[1], 'sealed', '1') end
return false
"""
