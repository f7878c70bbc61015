--[[
  ratelimit-refund: gives back the cost a group committed in one slot when a sibling part of the
  same group, in another slot, was denied (multiLimit across owners), so a denied group consumes
  nothing. Keys and fields as in ratelimit-check.lua.

  KEYS[1..n]  the counters the denied group committed to (one hash tag, one slot)
  ARGV        n × (windowSeq, cost): the window the commit went into, and the cost to give back

  Returns one integer per key: 1 refunded from c (window unchanged), 2 refunded from p (the window
  has rotated since, so the cost now weighs as the previous window), 0 nothing to do (the window is
  older than that, or the key expired).

  Invariants: touches only KEYS; never drives a count below 0; never writes the TTL or s; needs no
  clock, so it gives the same answer whenever it runs.
]]
local rcall = redis.call
local out = {}
for i = 1, #KEYS do
  local seq, cost = tonumber(ARGV[2 * i - 1]), tonumber(ARGV[2 * i])
  local v = rcall('HMGET', KEYS[i], 's', 'c', 'p')
  local s = tonumber(v[1])
  local field
  if s == seq then field = 'c' elseif s == seq + 1 then field = 'p' end
  if field then
    local have = tonumber(v[field == 'c' and 2 or 3]) or 0
    rcall('HSET', KEYS[i], field, string.format('%.0f', math.max(0, have - cost)))
    out[i] = field == 'c' and 1 or 2
  else
    out[i] = 0
  end
end
return out
