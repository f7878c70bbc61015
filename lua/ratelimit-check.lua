--[[
  ratelimit-check: evaluates groups of sliding-window limits that live in one Cluster slot; each
  group commits all or nothing. Same integer arithmetic as src/ratelimit/sliding-window.ts and the
  group rules of src/ratelimit/memory-limiter.ts (shared/design/ratelimit.md §5.1, §5.2).

  KEYS[1..n]  one hash per counter: s = window sequence (floor(ms / duration)), c = its count,
              p = the previous window's count. All keys share one hash tag. A key is listed once
              however many checks name it; checks refer to it by index.
  ARGV[1]     time override in unix ms, or "" to read the server's TIME (the override is for tests)
  ARGV[2]     TTL slack in ms: a (re)written window lives 2 × duration + slack
  ARGV[3]     G, the number of groups; then per group: k, then k × (keyIndex, limit, durationMs, cost)

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

-- Stored state per key index, read at most once, then kept in step with our own writes.
local stored = {}
local function load(i)
  local st = stored[i]
  if not st then
    local v = rcall('HMGET', KEYS[i], 's', 'c', 'p')
    st = { s = tonumber(v[1]), c = tonumber(v[2]) or 0, p = tonumber(v[3]) or 0 }
    stored[i] = st
  end
  return st
end

-- sliding-window.ts rotate(): same window → keep; next → shift; older or missing → zeros;
-- a stored window ahead of `now` (server clock stepped back) is kept, never rolled back.
local function rotate(st, seq)
  if st.s == nil then return seq, 0, 0 end
  if st.s >= seq then return st.s, st.c, st.p end
  if st.s == seq - 1 then return seq, 0, st.c end
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

-- Writes a committed tentative state: HINCRBY while the stored window is unchanged, else the
-- whole hash plus a fresh TTL (the only time the TTL moves).
-- Numbers go out as "%.0f": Lua's default "%.14g" would round counts above 10^14.
local function int(x) return string.format('%.0f', x) end
local function commit(i, t)
  if t.c == t.c0 then return end -- only cost-0 mentions: nothing to write
  local st = stored[i]
  if st.s == t.s then
    rcall('HINCRBY', KEYS[i], 'c', int(t.c - st.c))
  else
    rcall('HSET', KEYS[i], 's', int(t.s), 'c', int(t.c), 'p', int(t.p))
    rcall('PEXPIRE', KEYS[i], int(2 * t.d + slack))
  end
  st.s, st.c, st.p = t.s, t.c, t.p
end

local out = { now }
local pos = 4
for _ = 1, tonumber(ARGV[3]) do
  local k = tonumber(ARGV[pos])
  pos = pos + 1
  local tentative, order, checks, passed = {}, {}, {}, true
  for j = 1, k do
    local i, limit, d, cost = tonumber(ARGV[pos]), tonumber(ARGV[pos + 1]), tonumber(ARGV[pos + 2]), tonumber(ARGV[pos + 3])
    pos = pos + 4
    -- A counter named twice in one group sees the cost of its earlier mention.
    local t = tentative[i]
    local s, c, p
    if t then s, c, p = t.s, t.c, t.p else s, c, p = rotate(load(i), floor(now / d)) end
    local eff = effective(s, c, p, d)
    local own = limit > 0 and eff + cost <= limit
    if cost > 0 or t then
      if not t then order[#order + 1] = i end
      tentative[i] = { s = s, c = c + cost, p = p, d = d, c0 = t and t.c0 or c }
    end
    passed = passed and own
    checks[j] = { i = i, limit = limit, d = d, cost = cost, s = s, c = c, p = p, eff = eff, own = own }
  end
  if passed then
    for _, i in ipairs(order) do commit(i, tentative[i]) end
  end
  out[#out + 1] = passed and 1 or 0
  for _, ch in ipairs(checks) do
    local remaining = 0
    if ch.own then remaining = max(0, ch.limit - ch.eff - (passed and ch.cost or 0)) end
    local retry = 0
    if not ch.own then retry = retry_after(ch.s, ch.c, ch.p, ch.d, ch.limit, ch.cost) end
    local _, c2, p2 = rotate(load(ch.i), floor(now / ch.d))
    out[#out + 1] = ch.own and 1 or 0
    out[#out + 1] = remaining
    out[#out + 1] = (ch.s + 1) * ch.d
    out[#out + 1] = retry
    out[#out + 1] = c2
    out[#out + 1] = p2
  end
end
return out
