--[[
  ratelimit-refund: gives back the cost a group committed in one slot when a sibling part of the
  same group, in another slot, was denied (multiLimit across owners), so a denied group consumes
  nothing. Hashes, fields and values as in ratelimit-check.lua.

  KEYS[1]     the hash of the counters the denied group committed to
  ARGV        n × (field, windowSeq, cost): the counter, the window the commit went into, and the
              cost to give back

  Returns one integer per field: 1 refunded from c (window unchanged), 2 refunded from p (the window
  has rotated since, so the cost now weighs as the previous window), 0 nothing to do (the window is
  older than that, or the counter is gone).

  Invariants: touches only KEYS; never drives a count below 0; never writes s; needs no clock, so it
  gives the same answer whenever it runs.
]]
local rcall = redis.call
local out = {}
for i = 1, #ARGV / 3 do
  local field, seq, cost = ARGV[3 * i - 2], tonumber(ARGV[3 * i - 1]), tonumber(ARGV[3 * i])
  local v = rcall('HGET', KEYS[1], field)
  out[i] = 0
  if v then
    local s, c, p = struct.unpack('<lll', v)
    if s == seq then
      rcall('HSET', KEYS[1], field, struct.pack('<lll', s, math.max(0, c - cost), p))
      out[i] = 1
    elseif s == seq + 1 then
      rcall('HSET', KEYS[1], field, struct.pack('<lll', s, c, math.max(0, p - cost)))
      out[i] = 2
    end
  end
end
return out
