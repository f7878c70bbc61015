--[[
  verifications-append: add verification records to the time-ordered log and drop the oldest
  beyond the retained number, in one atomic step (src/storage/redis/verifications.ts).

  KEYS[1]   the log: sorted set, score = record time (ms); member = 16 hex digits of a sequence
            number, then the msgpack record. Members of one score sort by bytes, so records of
            one millisecond keep their append order and equal records stay distinct.
  KEYS[2]   the sequence counter (same slot)
  ARGV[1]   how many records to keep
  ARGV[2..] time, record bytes, time, record bytes, ...

  Returns   the number of records kept.
  Invariants: touches only KEYS; the lowest scores (oldest times) are dropped first.
]]
local rcall = redis.call

local n = (#ARGV - 1) / 2
local seq = rcall('INCRBY', KEYS[2], n) - n
for i = 0, n - 1 do
  seq = seq + 1
  rcall('ZADD', KEYS[1], ARGV[2 + 2 * i], string.format('%016x', seq) .. ARGV[3 + 2 * i])
end

local excess = rcall('ZCARD', KEYS[1]) - tonumber(ARGV[1])
if excess > 0 then
  rcall('ZREMRANGEBYRANK', KEYS[1], 0, excess - 1)
end
return rcall('ZCARD', KEYS[1])
