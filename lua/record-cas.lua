--[[
  record-cas: write or delete one stored record if its version is still the one the caller read:
  the compare-and-set behind every read-modify-write of the Redis storage
  (src/storage/redis/record-io.ts), so a concurrent change is retried, never lost.

  KEYS[1]   the record's hash: field r = msgpack record, v = version (1 after the first write,
            +1 per write). Other fields (a key's credits counter, credits-change.lua) are left
            alone by writes, so a spend never conflicts with a record change.
  ARGV[1]   expected version: '0' = the record must not exist; '*' = any (unconditional put)
  ARGV[2]   the new record bytes, or '' to delete the whole hash (record and credits)
  ARGV[3..] field/value pairs written together with the record (a key's credits on insert)

  Returns   the new version (>= 1) after a write, 0 after a delete, -1 when the version differed.
  Invariants: touches only KEYS[1]; a failed check writes nothing.
]]
local rcall = redis.call

local current = tonumber(rcall('HGET', KEYS[1], 'v') or '0')
if ARGV[1] ~= '*' and current ~= tonumber(ARGV[1]) then
  return -1
end

if ARGV[2] == '' then
  rcall('DEL', KEYS[1])
  return 0
end

local args = { 'HSET', KEYS[1], 'r', ARGV[2], 'v', current + 1 }
for i = 3, #ARGV do
  args[#args + 1] = ARGV[i]
end
rcall(unpack(args))
return current + 1
