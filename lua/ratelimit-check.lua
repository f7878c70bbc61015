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
              (text), those of KEYS[1] first, each listed once however many checks name it; G, the
              number of groups; then per group: k, then k × (fieldIndex, limit, durationMs, cost),
              fieldIndex 1-based among the fields. The fields ride in the array, not as arguments
              of their own: each argument costs the client and Redis a bulk string of its own

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

-- Per field index: the window s and previous count p after rotation (fixed for the call, as `now`
-- is), the count c (grows with commits), c0 the count at the start, sw the stored window (nil:
-- none), d the duration, w the previous count's weight floor(p · left / d) (fixed too).
local ks, kc, kp, kc0, ksw, kd, kw = {}, {}, {}, {}, {}, {}, {}
local G = A[m + fields + 1]
local out = { pack('<l', now) }
-- The group's tentative count per field index; tm[i] == g marks it as this group's.
local tm, tc = {}, {}
local pos = m + fields + 2
for g = 1, G do
  local k = A[pos]
  local firstCheck = pos + 1
  pos = firstCheck
  local passed = true
  for _ = 1, k do
    local i, limit, cost = A[pos], A[pos + 1], A[pos + 3]
    if not kd[i] then
      -- First mention: rotate the counter (inlined: a Lua call per field costs).
      local d = A[pos + 2]
      local seq = floor(now / d)
      local s, c0, p
      local v = stored[i]
      if v then s, c0, p = unpackState('<lll', v) end
      ksw[i] = s
      if s == nil then s, c0, p = seq, 0, 0
      elseif s < seq then
        if s == seq - 1 then s, c0, p = seq, 0, c0 else s, c0, p = seq, 0, 0 end
      end
      ks[i], kc[i], kp[i], kc0[i], kd[i] = s, c0, p, c0, d
      local left = d - (now - s * d)
      if left > d then left = d elseif left < 0 then left = 0 end
      kw[i] = floor(p * left / d)
    end
    local c = kc[i]
    if tm[i] == g then c = tc[i] end
    if limit <= 0 or c + kw[i] + cost > limit then passed = false end
    tm[i], tc[i] = g, c + cost
    pos = pos + 4
  end
  if passed then
    for q = firstCheck, pos - 1, 4 do
      local i = A[q]
      kc[i] = tc[i]
    end
  end
  out[g + 1] = passed and '1' or '0'
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
  local writes, created = {}, 0
  for i = first, first + count - 1 do
    local c = kc[i]
    -- Written when its count changed; a rotated window that took no cost is left as stored.
    if c ~= kc0[i] then
      if ksw[i] == nil then created = created + 1 end
      writes[#writes + 1] = A[FIELD0 + i]
      writes[#writes + 1] = pack('<lll', ks[i], c, kp[i])
    end
  end
  if #writes > 0 then
    if untabled[h] then
      writes[#writes + 1] = TABLE_FIELD
      writes[#writes + 1] = TABLE_VALUE
    end
    rcall('HSET', KEYS[h], unpack(writes))
  end
  -- Twice what this call created: the sweep outpaces new counters, so a hash stays near its live size.
  local budget = sweepEach + 2 * created
  if budget > 0 then sweep(KEYS[h], budget) end
  first = first + count
end
return table.concat(out)
