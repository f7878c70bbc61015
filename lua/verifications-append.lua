--[[
  verifications-append: add verification records to the time-ordered log, add the rollup
  increments given with them (the records' own, or sums the recorder held back; n may be 0),
  and drop the oldest records beyond the retained number, in one atomic step
  (src/storage/redis/verifications.ts). Rollups are not touched by the trimming.

  KEYS[1]   the log: sorted set, score = record time (ms); member = 16 hex digits of a sequence
            number, then the msgpack record. Members of one score sort by bytes, so records of
            one millisecond keep their append order and equal records stay distinct.
  KEYS[2]   the sequence counter
  KEYS[3..6] the bucket index of each granularity (minute, hour, day, month): sorted set,
            score = member = bucket start (ms)
  KEYS[7..] rollup buckets: one hash each; per dimensions digest D the fields
            'd'..D = msgpack dimensions, 'c'..D = count, 's'..D = spent credits,
            'l'..D = latency sum (float), 'n'..D = how many records carried a latency
            (all keys share one hash tag: one slot)
  ARGV[1]   how many records to keep
  ARGV[2]   n, the number of records
  ARGV[3 .. 2+2n]    time, record bytes, time, record bytes, ...
  ARGV[3+2n ..]      rollup increments, 9 values each: bucket key index (into KEYS), bucket
                     index key index, bucket start, D, dimensions bytes, count, spent credits,
                     latency sum, latency count

  Returns   the number of records kept.
  Invariants: touches only KEYS; the lowest scores (oldest times) are dropped first; zero
  increments of spent credits and latency write no field.
]]
local rcall = redis.call

local n = tonumber(ARGV[2])
local seq = rcall('INCRBY', KEYS[2], n) - n
for i = 0, n - 1 do
  seq = seq + 1
  rcall('ZADD', KEYS[1], ARGV[3 + 2 * i], string.format('%016x', seq) .. ARGV[4 + 2 * i])
end

local at = 3 + 2 * n
-- A bucket is added to its index once per call, not once per increment (many share a bucket).
local indexed = {}
while at <= #ARGV do
  local bucket = KEYS[tonumber(ARGV[at])]
  local start = ARGV[at + 2]
  local digest = ARGV[at + 3]
  if not indexed[bucket] then
    rcall('ZADD', KEYS[tonumber(ARGV[at + 1])], start, start)
    indexed[bucket] = true
  end
  rcall('HSETNX', bucket, 'd' .. digest, ARGV[at + 4])
  rcall('HINCRBY', bucket, 'c' .. digest, ARGV[at + 5])
  if ARGV[at + 6] ~= '0' then rcall('HINCRBY', bucket, 's' .. digest, ARGV[at + 6]) end
  if ARGV[at + 8] ~= '0' then
    rcall('HINCRBYFLOAT', bucket, 'l' .. digest, ARGV[at + 7])
    rcall('HINCRBY', bucket, 'n' .. digest, ARGV[at + 8])
  end
  at = at + 9
end

local excess = rcall('ZCARD', KEYS[1]) - tonumber(ARGV[1])
if excess > 0 then
  rcall('ZREMRANGEBYRANK', KEYS[1], 0, excess - 1)
end
return rcall('ZCARD', KEYS[1])
