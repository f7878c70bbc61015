--[[
  ratelimit-check: decides groups of sliding-window limits that live in one Cluster slot; each
  group commits all or nothing. Same integer arithmetic as src/ratelimit/sliding-window.ts and the
  group rules of src/ratelimit/memory-limiter.ts: both backends must decide alike.

  The script only decides and commits. It returns each counter's state at the start of the call
  and each group's verdict; the caller replays the groups on those states to work out every check's
  remaining, reset and retry-after (src/ratelimit/redis-check-call.ts), which is the same
  arithmetic, so the script does the least that must happen inside Redis.

  Counters are fields of a few hashes (a bucket's hash, src/ratelimit/redis-keys.ts): one HMGET
  reads all of a call's counters in a hash and one HSET writes those that changed, where a hash
  per counter cost two commands per counter. A field's value is its state packed as three
  little-endian 64-bit integers: s = window sequence (floor(ms / duration)), c = its count, p =
  the previous window's count. Its name ends in `:<durationMs>`. Fields cannot expire, so calls
  sweep: stale counters (two windows behind) are deleted as an HSCAN cursor, kept in the hash's
  field `#`, walks the hash.

  KEYS[1..m]  the hashes; all share one hash tag
  ARGV[1]     time override in unix ms, or "" to read the server's TIME (the override is for tests)
  ARGV[2]     fields to sweep per hash in this call besides twice those it creates (0: only those)
  ARGV[3]     msgpack array: m counts (fields per hash, in KEYS order); then the F counter fields
              (text), those of KEYS[1] first, each listed once however many checks name it; then
              the F fields' durations in ms, in the same order; G, the number of groups; then per
              group: k, then k × (fieldIndex, limit, cost), fieldIndex 1-based among the fields.
              The fields ride in the array, not as arguments of their own: each argument costs the
              client and Redis a bulk string of its own

  Returns one string: now (a little-endian 64-bit integer), then per group its verdict ('1' or
  '0'), then per field its state as stored before this call (24 bytes; zeros for none), which the
  caller rotates to `now` by the same rules. One bulk string, not an integer per number: Redis
  converted each number of a reply on its own, and the `once` wrapper packed them all again.

  Invariants: touches only KEYS; a window never rolls backwards (clock stepped back); a limit of 0
  denies every check, cost 0 included; a denied group and cost 0 write nothing; groups run in order
  and see earlier commits; a counter named twice in one group sees the cost of its earlier mention;
  the sweep deletes only counters two or more windows behind `now`; deterministic for a given
  ARGV[1].
]]
local rcall = redis.call
local floor = math.floor
local pack, unpackState = struct.pack, struct.unpack

local now = tonumber(ARGV[1])
if not now then
  local t = rcall('TIME')
  now = tonumber(t[1]) * 1000 + floor(tonumber(t[2]) / 1000)
end
local sweepEach = tonumber(ARGV[2])
-- One msgpack array instead of arguments per check and per field: Redis makes a string of every
-- argument and each number needed tonumber(); unpacking is one C call.
local A = cmsgpack.unpack(ARGV[3])

-- A hash of up to hash-max-listpack-entries small fields (512 by default) is stored as a listpack,
-- where finding a field is a scan of them all: a call's HMGET of its counters cost about a whole
-- scan per counter. One field whose value is longer than hash-max-listpack-value (64 by default)
-- makes Redis keep the hash as a hash table, also across restarts. '!' begins no counter's field.
local TABLE_FIELD = '!'
local TABLE_VALUE = 'keeps this hash a hash table: in a listpack every counter read would scan all of its fields'
-- A counter with no stored state still fills its place in the reply, so every state sits at a fixed offset.
local NO_STATE = string.rep('\0', 24)
local m = #KEYS
local FIELD0 = m -- A[FIELD0 + i] is field i

-- Stored values per field index, read with one HMGET per hash.
local stored = {}
-- Per hash: true when it lacks TABLE_FIELD (new, or written by an older keygate).
local untabled = {}
local first = 1
for h = 1, m do
  local n = A[h]
  if n > 0 then
    local v = rcall('HMGET', KEYS[h], TABLE_FIELD, unpack(A, FIELD0 + first, FIELD0 + first + n - 1))
    untabled[h] = not v[1]
    for j = 1, n do stored[first + j - 1] = v[j + 1] end
  end
  first = first + n
end
local fields = first - 1
local DURATION0 = FIELD0 + fields -- A[DURATION0 + i] is field i's duration

-- Every counter rotated to `now` once, before the groups (its duration is the field's, so it is
-- sent once per field): ks window, kc count (grows with commits), kp previous count, kw the
-- previous count's weight floor(p · left / d), fixed for the call as `now` is. A counter with no
-- stored state starts empty in the current window. Durations repeat, so their windows are reused.
local ks, kc, kp, kw = {}, {}, {}, {}
local windowOf = {}
for i = 1, fields do
  local d = A[DURATION0 + i]
  local seq = windowOf[d]
  if not seq then
    seq = floor(now / d)
    windowOf[d] = seq
  end
  local s, c, p = seq, 0, 0
  local v = stored[i]
  if v then
    s, c, p = unpackState('<lll', v)
    if s < seq then
      if s == seq - 1 then s, c, p = seq, 0, c else s, c, p = seq, 0, 0 end
    end
  end
  ks[i], kc[i], kp[i] = s, c, p
  if p == 0 then kw[i] = 0
  else
    local left = d - (now - s * d)
    if left > d then left = d elseif left < 0 then left = 0 end
    kw[i] = floor(p * left / d)
  end
end

local G = A[DURATION0 + fields + 1]
local out = { pack('<l', now) }
-- The group's tentative count per field index (tm[i] == g marks it as this group's); dirty[i]
-- once a commit changed the count, so that only those are written.
local tm, tc, dirty = {}, {}, {}
local pos = DURATION0 + fields + 2
for g = 1, G do
  local k = A[pos]
  local firstCheck = pos + 1
  pos = firstCheck
  local passed = true
  for _ = 1, k do
    local i, limit, cost = A[pos], A[pos + 1], A[pos + 2]
    local c
    if tm[i] == g then c = tc[i] else c = kc[i] end
    if limit <= 0 or c + kw[i] + cost > limit then passed = false end
    tm[i], tc[i] = g, c + cost
    pos = pos + 3
  end
  if passed then
    for q = firstCheck, pos - 1, 3 do
      local i = A[q]
      local c = tc[i]
      if c ~= kc[i] then
        kc[i] = c
        dirty[i] = true
      end
    end
    out[g + 1] = '1'
  else
    out[g + 1] = '0'
  end
end

for i = 1, fields do out[G + 1 + i] = stored[i] or NO_STATE end

-- Deletes the fields of `hash` two windows or more behind `now` among about `count` from its cursor.
local function sweep(hash, count)
  local cursor = rcall('HGET', hash, '#') or '0'
  local scan = rcall('HSCAN', hash, cursor, 'COUNT', count)
  local entries, stale = scan[2], {}
  for e = 1, #entries, 2 do
    local f = entries[e]
    if f ~= '#' and f ~= TABLE_FIELD then
      local d = tonumber(string.match(f, ':(%d+)$'))
      local s = unpackState('<lll', entries[e + 1])
      if d and floor(now / d) - s >= 2 then stale[#stale + 1] = f end
    end
  end
  if #stale > 0 then rcall('HDEL', hash, unpack(stale)) end
  if scan[1] == '0' then rcall('HDEL', hash, '#') else rcall('HSET', hash, '#', scan[1]) end
end

first = 1
for h = 1, m do
  local count = A[h]
  local writes, n, created = {}, 0, 0
  for i = first, first + count - 1 do
    -- Written when a commit changed its count; a rotated window that took no cost is left as stored.
    if dirty[i] then
      if not stored[i] then created = created + 1 end
      writes[n + 1] = A[FIELD0 + i]
      writes[n + 2] = pack('<lll', ks[i], kc[i], kp[i])
      n = n + 2
    end
  end
  if n > 0 then
    if untabled[h] then
      writes[n + 1] = TABLE_FIELD
      writes[n + 2] = TABLE_VALUE
    end
    rcall('HSET', KEYS[h], unpack(writes))
  end
  -- Twice what this call created: the sweep outpaces new counters, so a hash stays near its live size.
  local budget = sweepEach + 2 * created
  if budget > 0 then sweep(KEYS[h], budget) end
  first = first + count
end
return table.concat(out)
