--[[
  index-claim: claim a unique index entry (key hash, externalId, slug, role name, namespace name,
  override identifier) for a record id, or take over an entry another id left behind
  (src/storage/redis/unique-index.ts).

  An entry is "<id>|<claimedAtMs>", the time from this node's clock (TIME), so the age of a claim
  is measured on one clock whatever replica of keygate made it. An entry only counts while the
  record it names exists and agrees with it; the caller checks that. A claim younger than the
  lease may belong to a write still in flight (claim first, record second), so it is never taken
  over, and writers finish their record write within half the lease or claim again.

  KEYS[1]  the index entry (a string)
  ARGV[1]  the id claiming it
  ARGV[2]  '' on a first attempt; otherwise the exact entry the caller found stale (its record is
           missing or no longer agrees): replaced only if unchanged and at least ARGV[3] ms old
  ARGV[3]  the lease, ms

  Returns  {1, entry} when the entry now names ARGV[1] (new, refreshed because it already named
           ARGV[1], or taken over); {0, entry, ageMs} when it names another id.
  Invariants: touches only KEYS[1].
]]
local rcall = redis.call

local t = rcall('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local mine = ARGV[1] .. '|' .. now

local entry = rcall('GET', KEYS[1])
if not entry then
  rcall('SET', KEYS[1], mine)
  return { 1, mine }
end

-- Ids may contain '|': the claim time is what follows the last one.
local holder, at = string.match(entry, '^(.*)|(%d+)$')
local age = now - tonumber(at or '0')
if holder == ARGV[1] or (ARGV[2] ~= '' and entry == ARGV[2] and age >= tonumber(ARGV[3])) then
  rcall('SET', KEYS[1], mine)
  return { 1, mine }
end
return { 0, entry, age }
