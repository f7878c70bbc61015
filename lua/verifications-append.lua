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
  KEYS[8..] rollup buckets: one hash each; per dimensions digest D one field 'v'..D: four
            little-endian doubles (count, spent credits, latency sum, how many records carried
            a latency), then the msgpack dimensions. One field, not one per sum: a bucket's rows
            of one call are read with one HMGET and written with one HSET, where HINCRBY per sum
            cost four commands a row. Buckets written before may hold a row's sums as fields of
            their own ('d'..D dimensions, 'c'..D, 's'..D, 'l'..D, 'n'..D); they are left as
            they are and readers add the two (all keys share one hash tag: one slot)
  ARGV[1]   how many records to keep
  ARGV[2]   b, the number of blocks
  ARGV[3 .. 2+3b]    first time, record count, body, first time, record count, body, ...
  ARGV[3+3b]         rollup increments (absent: none), a msgpack array: B, then per bucket
                     its key index (into KEYS), its index key's index and its start (a
                     string); D, then per dimensions their digest; then per increment: bucket
                     (1..B), dimensions (1..D), count, spent credits, latency sum, latency count.
                     One array, not arguments per increment: Redis makes a string of every
                     argument, and unpacking yields numbers in one C call
  ARGV[4+3b ..]      the dimensions' msgpack bytes, in the order of their digests (cmsgpack
                     cannot carry bytes that are not text)

  Returns   the number of records kept.
  Invariants: touches only KEYS; the oldest blocks (lowest first time, then sequence) lose their
  records first; a row's dimensions are those of its first write.
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

local A = ARGV[3 + 3 * b] and cmsgpack.unpack(ARGV[3 + 3 * b])
if A then
  local pack, unpackSums, sub = struct.pack, struct.unpack, string.sub
  local B = A[1]
  local bucketKeys = {}
  local p = 2
  for i = 1, B do
    bucketKeys[i] = KEYS[A[p]]
    rcall('ZADD', KEYS[A[p + 1]], A[p + 2], A[p + 2])
    p = p + 3
  end
  local D = A[p]
  local fieldOf = {}
  for d = 1, D do fieldOf[d] = 'v' .. A[p + d] end
  p = p + D + 1
  local DIMS0 = 3 + 3 * b -- ARGV[DIMS0 + d] holds dimensions d
  -- The call's sums per bucket and row (a row named twice adds up), then one read and one write per bucket.
  local rows, order = {}, {}
  for i = 1, B do rows[i], order[i] = {}, {} end
  for q = p, #A, 6 do
    local i, d = A[q], A[q + 1]
    local row = rows[i][d]
    if row then
      row[1], row[2], row[3], row[4] = row[1] + A[q + 2], row[2] + A[q + 3], row[3] + A[q + 4], row[4] + A[q + 5]
    else
      rows[i][d] = { A[q + 2], A[q + 3], A[q + 4], A[q + 5] }
      order[i][#order[i] + 1] = d
    end
  end
  for i = 1, B do
    local ds = order[i]
    if #ds > 0 then
      local fields = {}
      for j = 1, #ds do fields[j] = fieldOf[ds[j]] end
      local stored = rcall('HMGET', bucketKeys[i], unpack(fields))
      local writes = {}
      for j = 1, #ds do
        local d = ds[j]
        local row = rows[i][d]
        local c, s, l, n = row[1], row[2], row[3], row[4]
        local v = stored[j]
        local dims
        if v then
          local c0, s0, l0, n0 = unpackSums('<dddd', v)
          c, s, l, n = c + c0, s + s0, l + l0, n + n0
          dims = sub(v, 33)
        else
          dims = ARGV[DIMS0 + d]
        end
        writes[2 * j - 1] = fields[j]
        writes[2 * j] = pack('<dddd', c, s, l, n) .. dims
      end
      rcall('HSET', bucketKeys[i], unpack(writes))
    end
  end
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
