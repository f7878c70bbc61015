--[[
  ratelimit-check: evaluates groups of sliding-window limits that live in one Cluster slot; each
  group commits all or nothing. Same integer arithmetic as src/ratelimit/sliding-window.ts and the
  group rules of src/ratelimit/memory-limiter.ts: both backends must decide alike.

  KEYS[1..n]  one hash per counter: s = window sequence (floor(ms / duration)), c = its count,
              p = the previous window's count. All keys share one hash tag. A key is listed once
              however many checks name it; checks refer to it by index.
  ARGV[1]     time override in unix ms, or "" to read the server's TIME (the override is for tests)
  ARGV[2]     TTL slack in ms: a (re)written window lives 2 × duration + slack
  ARGV[3]     msgpack array of numbers: G, the number of groups; then per group: k, then
              k × (keyIndex, limit, durationMs, cost)

  Returns a flat array of integers:
    now, then per group: groupPassed (1/0), then per check 6 values:
    passed (1/0), remaining, resetAtMs, retryAfterMs (-1: never), c, p
  where c and p are the counter's state after the group, rotated to `now` (window = reset/d − 1),
  which the caller keeps as a lower bound for its deny-only cache.

  Invariants: touches only KEYS; a window never rolls backwards (clock stepped back); a limit of 0
  denies every check, cost 0 included; a denied group and cost 0 write nothing; groups run in order
  and see earlier commits; PEXPIRE is set only when a window is (re)written; deterministic for a
  given ARGV[1].
]]
local rcall = redis.call
local floor, ceil, min, max = math.floor, math.ceil, math.min, math.max

local now = tonumber(ARGV[1])
if not now then
  local t = rcall('TIME')
  now = tonumber(t[1]) * 1000 + floor(tonumber(t[2]) / 1000)
end
local slack = tonumber(ARGV[2])

-- Stored state per key index (ss, sc, sp; sl marks the loaded ones), read at most once, then
-- kept in step with our own commits. Flat arrays, not a table per key or check: this script runs
-- for every limited verification, and table allocation was much of its cost.
local ss, sc, sp, sl = {}, {}, {}, {}
local function load(i)
  if not sl[i] then
    local v = rcall('HMGET', KEYS[i], 's', 'c', 'p')
    ss[i], sc[i], sp[i], sl[i] = tonumber(v[1]), tonumber(v[2]) or 0, tonumber(v[3]) or 0, true
  end
end

-- sliding-window.ts rotate(): same window → keep; next → shift; older or missing → zeros;
-- a stored window ahead of `now` (server clock stepped back) is kept, never rolled back.
local function rotate(i, seq)
  load(i)
  local s = ss[i]
  if s == nil then return seq, 0, 0 end
  if s >= seq then return s, sc[i], sp[i] end
  if s == seq - 1 then return seq, 0, sc[i] end
  return seq, 0, 0
end

local function effective(s, c, p, d)
  local left = min(d, max(0, d - (now - s * d)))
  return c + floor(p * left / d)
end

-- sliding-window.ts retryAfter(), with -1 for "never" (cost above the limit, limit 0).
local function retry_after(s, c, p, d, limit, cost)
  if limit == 0 or cost > limit then return -1 end
  if effective(s, c, p, d) + cost <= limit then return 0 end
  local window_end = (s + 1) * d
  if c + cost <= limit then
    if p == 0 then return window_end - now end
    local max_left = ceil((limit - c - cost + 1) * d / p) - 1
    return max(1, s * d + (d - max_left) - now)
  end
  if c == 0 then return window_end - now end
  local max_left = ceil((limit - cost + 1) * d / c) - 1
  return window_end + (d - min(d, max_left)) - now
end

-- A committed tentative state becomes the stored one; writes wait for the end of the call, so a
-- counter committed by many groups of this call is written once.
-- Numbers go out as "%.0f": Lua's default "%.14g" would round counts above 10^14.
local function int(x) return string.format('%.0f', x) end
local loaded_s, loaded_c, dirty_d = {}, {}, {}
local dirty, ndirty = {}, 0
local function commit(i, s, c, p, d)
  if not dirty_d[i] then
    dirty_d[i] = d
    ndirty = ndirty + 1
    dirty[ndirty] = i
    loaded_s[i], loaded_c[i] = ss[i], sc[i]
  end
  ss[i], sc[i], sp[i] = s, c, p
end

-- HINCRBY while the stored window is the one read, else the whole hash plus a fresh TTL (the
-- only time the TTL moves).
local function write_back()
  for n = 1, ndirty do
    local i = dirty[n]
    if loaded_s[i] == ss[i] then
      rcall('HINCRBY', KEYS[i], 'c', int(sc[i] - loaded_c[i]))
    else
      rcall('HSET', KEYS[i], 's', int(ss[i]), 'c', int(sc[i]), 'p', int(sp[i]))
      rcall('PEXPIRE', KEYS[i], int(2 * dirty_d[i] + slack))
    end
  end
end

-- Per check of the current group (index j), and the group's tentative state per key index i
-- (tm[i] == the group's number marks it): arrays reused by every group.
local ci, climit, cd, ccost, cs, cc, cp, ceff, cown = {}, {}, {}, {}, {}, {}, {}, {}, {}
local tm, ts, tc, tp, td, tc0 = {}, {}, {}, {}, {}, {}
local touched = {}
local out, nout = { now }, 1
-- One msgpack array instead of four arguments per check: Redis makes a string of every argument
-- and each needed tonumber(); unpacking is one C call that yields numbers.
local A = cmsgpack.unpack(ARGV[3])
local pos = 2
for g = 1, A[1] do
  local k = A[pos]
  pos = pos + 1
  local ntouched, passed = 0, true
  for j = 1, k do
    local i, limit, d, cost = A[pos], A[pos + 1], A[pos + 2], A[pos + 3]
    pos = pos + 4
    -- A counter named twice in one group sees the cost of its earlier mention.
    local mentioned = tm[i] == g
    local s, c, p
    if mentioned then s, c, p = ts[i], tc[i], tp[i] else s, c, p = rotate(i, floor(now / d)) end
    local eff = effective(s, c, p, d)
    local own = limit > 0 and eff + cost <= limit
    if cost > 0 or mentioned then
      if not mentioned then
        tm[i], tc0[i] = g, c
        ntouched = ntouched + 1
        touched[ntouched] = i
      end
      ts[i], tc[i], tp[i], td[i] = s, c + cost, p, d
    end
    passed = passed and own
    ci[j], climit[j], cd[j], ccost[j], cs[j], cc[j], cp[j], ceff[j], cown[j] = i, limit, d, cost, s, c, p, eff, own
  end
  if passed then
    for t = 1, ntouched do
      local i = touched[t]
      -- Only cost-0 mentions: nothing to write.
      if tc[i] ~= tc0[i] then commit(i, ts[i], tc[i], tp[i], td[i]) end
    end
  end
  nout = nout + 1
  out[nout] = passed and 1 or 0
  for j = 1, k do
    local limit, d, cost, s, own = climit[j], cd[j], ccost[j], cs[j], cown[j]
    local remaining, retry = 0, 0
    if own then remaining = max(0, limit - ceff[j] - (passed and cost or 0))
    else retry = retry_after(s, cc[j], cp[j], d, limit, cost) end
    local _, c2, p2 = rotate(ci[j], floor(now / d))
    out[nout + 1] = own and 1 or 0
    out[nout + 2] = remaining
    out[nout + 3] = (s + 1) * d
    out[nout + 4] = retry
    out[nout + 5] = c2
    out[nout + 6] = p2
    nout = nout + 6
  end
end
write_back()
return out
