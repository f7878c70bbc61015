--[[
  ratelimit-check: decides groups of sliding-window limits that live in one Cluster slot; each
  group commits all or nothing. Same integer arithmetic as src/ratelimit/sliding-window.ts and the
  group rules of src/ratelimit/memory-limiter.ts: both backends must decide alike.

  The script only decides and commits. It returns each counter's state at the start of the call
  and each group's verdict; the caller replays the groups on those states to work out every check's
  remaining, reset and retry-after (src/ratelimit/redis-check-call.ts), which is the same
  arithmetic, so the script does the least that must happen inside Redis.

  KEYS[1..n]  one hash per counter: s = window sequence (floor(ms / duration)), c = its count,
              p = the previous window's count. All keys share one hash tag. A key is listed once
              however many checks name it; checks refer to it by index; every key is named.
  ARGV[1]     time override in unix ms, or "" to read the server's TIME (the override is for tests)
  ARGV[2]     TTL slack in ms: a (re)written window lives 2 × duration + slack
  ARGV[3]     msgpack array of numbers: G, the number of groups; then per group: k, then
              k × (keyIndex, limit, durationMs, cost)

  Returns a flat array of integers: now; then per group: passed (1/0); then per key: s, c, p, its
  state rotated to `now` before this call's commits.

  Invariants: touches only KEYS; a window never rolls backwards (clock stepped back); a limit of 0
  denies every check, cost 0 included; a denied group and cost 0 write nothing; groups run in order
  and see earlier commits; a counter named twice in one group sees the cost of its earlier mention;
  PEXPIRE is set only when a window is (re)written; deterministic for a given ARGV[1].
]]
local rcall = redis.call
local floor = math.floor

local now = tonumber(ARGV[1])
if not now then
  local t = rcall('TIME')
  now = tonumber(t[1]) * 1000 + floor(tonumber(t[2]) / 1000)
end
local slack = tonumber(ARGV[2])

-- Per key index: the window s and previous count p after rotation (fixed for the call, as `now`
-- is), the count c (grows with commits), c0 the count at the start, sw the stored window (nil:
-- none), d the duration, w the previous count's weight floor(p · left / d) (fixed too).
local ks, kc, kp, kc0, ksw, kd, kw = {}, {}, {}, {}, {}, {}, {}
-- One msgpack array instead of four arguments per check: Redis makes a string of every argument
-- and each needed tonumber(); unpacking is one C call that yields numbers.
local A = cmsgpack.unpack(ARGV[3])
local G = A[1]
local out = { now }
-- The group's tentative count per key index; tm[i] == g marks it as this group's.
local tm, tc = {}, {}
local pos = 2
for g = 1, G do
  local k = A[pos]
  local first = pos + 1
  pos = first
  local passed = true
  for _ = 1, k do
    local i, limit, cost = A[pos], A[pos + 1], A[pos + 3]
    if not kd[i] then
      -- First mention: read and rotate the counter (inlined: a Lua call per key costs).
      local d = A[pos + 2]
      local v = rcall('HMGET', KEYS[i], 's', 'c', 'p')
      local seq = floor(now / d)
      local s, c0, p = tonumber(v[1]), tonumber(v[2]) or 0, tonumber(v[3]) or 0
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
    for q = first, pos - 1, 4 do
      local i = A[q]
      kc[i] = tc[i]
    end
  end
  out[g + 1] = passed and 1 or 0
end

-- Numbers go out as "%.0f": Lua's default "%.14g" would round counts above 10^14, and a number
-- handed to redis.call as it is becomes "1e+08" on some Redis versions (7.2.0 to 7.2.4).
local function int(x) return string.format('%.0f', x) end
local n = G + 1
for i = 1, #KEYS do
  local c = kc[i]
  -- HINCRBY while the stored window is the one read, else the whole hash plus a fresh TTL (the
  -- only time the TTL moves).
  if c ~= kc0[i] then
    if ksw[i] == ks[i] then
      rcall('HINCRBY', KEYS[i], 'c', int(c - kc0[i]))
    else
      rcall('HSET', KEYS[i], 's', int(ks[i]), 'c', int(c), 'p', int(kp[i]))
      rcall('PEXPIRE', KEYS[i], int(2 * kd[i] + slack))
    end
  end
  -- A key no check named (callers never send one) still fills its place, so the reply keeps its length.
  out[n + 1], out[n + 2], out[n + 3] = ks[i] or 0, kc0[i] or 0, kp[i] or 0
  n = n + 3
end
return out
