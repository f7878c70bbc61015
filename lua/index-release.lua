--[[
  index-release: remove a unique index entry if it still names the given id
  (src/storage/redis/unique-index.ts). Called after the record stopped holding the value (record
  deleted, hash changed), so an entry another id claimed meanwhile is never removed.

  KEYS[1]  the index entry ("<id>|<claimedAtMs>", see index-claim.lua)
  ARGV[1]  the id
  Returns  1 when removed, 0 when the entry was absent or names another id.
  Invariants: touches only KEYS[1].
]]
local entry = redis.call('GET', KEYS[1])
if not entry then
  return 0
end
local holder = string.match(entry, '^(.*)|%d+$')
if holder ~= ARGV[1] then
  return 0
end
redis.call('DEL', KEYS[1])
return 1
