--[[
  verifications-append: add blocks of verification records to the log, add the rollup increments
  given with them (the records' own, or sums the recorder held back; there may be no block), and
  drop the oldest records beyond the retained number, in one atomic step
  (src/storage/redis/verifications.ts, src/storage/verification-blocks.ts). Rollups are not
  touched by the trimming.

  KEYS[1]   the log: sorted set, score = the block's first record time (ms); member = 16 hex
            digits of a sequence number, 8 of skip (the block's first records dropped), 8 of its
            record count, then the block body. Members of one score sort by bytes, so by sequence.
            Members written before blocks are one record each: 16 hex digits, then the msgpack
            record (whose first byte is ≥ 0x80, never a hex digit).
  KEYS[2]   the sequence counter
  KEYS[3]   the number of records kept (absent before blocks: ZCARD then, one record a member)
  KEYS[4..7] the bucket index of each granularity (minute, hour, day, month): sorted set,
            score = member = bucket start (ms)
  KEYS[8..] rollup buckets: one hash each; per dimensions digest D the fields
            'd'..D = msgpack dimensions, 'c'..D = count, 's'..D = spent credits,
            'l'..D = latency sum (float), 'n'..D = how many records carried a latency
            (all keys share one hash tag: one slot)
  ARGV[1]   how many records to keep
  ARGV[2]   b, the number of blocks
  ARGV[3 .. 2+3b]    first time, record count, body, first time, record count, body, ...
  ARGV[3+3b ..]      rollup increments, 9 values each: bucket key index (into KEYS), bucket
                     index key index, bucket start, D, dimensions bytes, count, spent credits,
                     latency sum, latency count

  Returns   the number of records kept.
  Invariants: touches only KEYS; the oldest blocks (lowest first time, then sequence) lose their
  records first; zero increments of spent credits and latency write no field.
]]
local rcall = redis.call

local kept = tonumber(rcall('GET', KEYS[3]) or rcall('ZCARD', KEYS[1]))
local b = tonumber(ARGV[2])
local seq = rcall('INCRBY', KEYS[2], b) - b
for i = 0, b - 1 do
  seq = seq + 1
  local count = tonumber(ARGV[4 + 3 * i])
  rcall('ZADD', KEYS[1], ARGV[3 + 3 * i], string.format('%016x%08x%08x', seq, 0, count) .. ARGV[5 + 3 * i])
  kept = kept + count
end

local at = 3 + 3 * b
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

-- The oldest blocks go first, whole, or their first records (the skip in the member rises).
local excess = kept - tonumber(ARGV[1])
while excess > 0 do
  local first = rcall('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  if #first == 0 then
    kept = 0
    break
  end
  local member, score = first[1], first[2]
  local skip, count = 0, 1
  if string.byte(member, 17) < 128 then
    skip = tonumber(string.sub(member, 17, 24), 16)
    count = tonumber(string.sub(member, 25, 32), 16)
  end
  local left = count - skip
  rcall('ZREM', KEYS[1], member)
  if left <= excess then
    excess = excess - left
    kept = kept - left
  else
    rcall('ZADD', KEYS[1], score, string.sub(member, 1, 16) .. string.format('%08x', skip + excess) .. string.sub(member, 25))
    kept = kept - excess
    excess = 0
  end
end
rcall('SET', KEYS[3], kept)
return kept
