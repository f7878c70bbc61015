--[[
  credits-change: read or change a key's credits counter atomically, first applying a refill
  that fell due since lastRefillAt (src/storage/redis/key-store.ts, credits.ts).

  The refill rule is the one of src/storage/refill.ts, step for step (monthly, latestMoment,
  refilled below). Keep the two in step: test/contracts/redis-credits-refill.test.ts compares
  this script with refill.ts over a calendar of dates.

  KEYS[1]    the key's hash (record-cas.lua): r = key record; the counter in fields
             cr = remaining, ci = refill interval, ca = refill amount, cd = refill day,
             cl = lastRefillAt (ms). No cr: the key is unlimited.
  ARGV[1]    op: get | spend | adjust | set | patch
  ARGV[2..7] UTC calendar facts of now, computed in TypeScript (Lua has no date library):
             nowMs, todayStartMs, monthStartMs, daysInMonth, prevMonthStartMs, daysInPrevMonth
  ARGV[8..]  spend: cost | adjust: delta
             set: remaining ('' removes the counter), interval, amount, refillDay, lastRefillAt
             patch: remaining ('' keeps it), refill mode (keep | remove | set), interval, amount, refillDay
             ('' = absent everywhere)

  Returns    {status, remaining, interval, amount, refillDay, lastRefillAt}, numbers as strings,
             '' when absent. status: ok | refused (spend did not fit; nothing taken) |
             none (no counter) | unknown (no key record; set and patch only).
  Invariants: touches only KEYS[1] and only its c* fields; `get` writes nothing; a refill found
  due by spend/adjust is written even when the spend is refused, so it happens exactly once.
]]
local rcall = redis.call
local DAY = 86400000
local MAX_SAFE = 9007199254740991
local key, op = KEYS[1], ARGV[1]
local now, today = tonumber(ARGV[2]), tonumber(ARGV[3])
local monthStart, monthDays = tonumber(ARGV[4]), tonumber(ARGV[5])
local prevStart, prevDays = tonumber(ARGV[6]), tonumber(ARGV[7])

local function num(s)
  if not s or s == '' then return nil end
  return tonumber(s)
end
-- '%.17g' prints every integer up to 2^53 in full (tostring would switch to exponent form).
local function str(n)
  if n == nil then return '' end
  return string.format('%.17g', n)
end

-- refill.ts monthlyMoment: the refill day, or the month's last day when shorter.
local function monthly(startMs, days, day)
  return startMs + (math.min(day, days) - 1) * DAY
end
-- refill.ts latestRefillMoment
local function latestMoment(c)
  if c.interval == 'daily' or c.day == nil then return today end
  local this = monthly(monthStart, monthDays, c.day)
  if this <= now then return this end
  return monthly(prevStart, prevDays, c.day)
end
-- refill.ts refilled: resets to the amount (never adds, keeps a larger balance); true if due.
local function refill(c)
  if c.interval == nil or c.last == nil then return false end
  if latestMoment(c) <= c.last then return false end
  c.remaining = math.max(c.remaining, c.amount)
  c.last = now
  return true
end

local function load()
  local f = rcall('HMGET', key, 'cr', 'ci', 'ca', 'cd', 'cl')
  if not f[1] then return nil end
  return { remaining = tonumber(f[1]), interval = f[2] or nil, amount = num(f[3]), day = num(f[4]), last = num(f[5]) }
end
-- Spend, adjust and a refill change only the balance and lastRefillAt.
local function saveBalance(c)
  if c.last == nil then rcall('HSET', key, 'cr', str(c.remaining))
  else rcall('HSET', key, 'cr', str(c.remaining), 'cl', str(c.last)) end
end
local function save(c)
  rcall('HDEL', key, 'cr', 'ci', 'ca', 'cd', 'cl')
  local args = { 'HSET', key, 'cr', str(c.remaining) }
  if c.interval then
    args[#args + 1] = 'ci'; args[#args + 1] = c.interval
    args[#args + 1] = 'ca'; args[#args + 1] = str(c.amount)
    if c.day then args[#args + 1] = 'cd'; args[#args + 1] = str(c.day) end
  end
  if c.last then args[#args + 1] = 'cl'; args[#args + 1] = str(c.last) end
  rcall(unpack(args))
end
local function reply(status, c)
  if c == nil then return { status, '', '', '', '', '' } end
  return { status, str(c.remaining), c.interval or '', str(c.amount), str(c.day), str(c.last) }
end

if op == 'set' or op == 'patch' then
  if rcall('HEXISTS', key, 'r') == 0 then return reply('unknown') end
end

if op == 'set' then
  if ARGV[8] == '' then
    rcall('HDEL', key, 'cr', 'ci', 'ca', 'cd', 'cl')
    return reply('ok')
  end
  local c = { remaining = tonumber(ARGV[8]), amount = num(ARGV[10]), day = num(ARGV[11]), last = num(ARGV[12]) }
  if ARGV[9] ~= '' then c.interval = ARGV[9] end
  save(c)
  return reply('ok', c)
end

local c = load()

if op == 'patch' then
  -- A refill due under the old settings happened before this change (keygate's LMDB backend does the same).
  if c then refill(c) end
  local remaining = num(ARGV[8])
  if remaining == nil and c then remaining = c.remaining end
  if remaining == nil then return reply('none') end
  local n = { remaining = remaining }
  if ARGV[9] == 'set' then
    -- A new refill setting starts its schedule now.
    n.interval, n.amount, n.day, n.last = ARGV[10], num(ARGV[11]), num(ARGV[12]), now
  elseif ARGV[9] == 'keep' and c and c.interval then
    n.interval, n.amount, n.day, n.last = c.interval, c.amount, c.day, c.last
  end
  save(n)
  return reply('ok', n)
end

if c == nil then return reply('none') end
local due = refill(c)

if op == 'get' then return reply('ok', c) end

if op == 'spend' then
  local cost = tonumber(ARGV[8])
  if cost > 0 and c.remaining < cost then
    if due then saveBalance(c) end
    return reply('refused', c)
  end
  if cost ~= 0 then c.remaining = c.remaining - cost end
  if due or cost ~= 0 then saveBalance(c) end
  return reply('ok', c)
end

if op == 'adjust' then
  c.remaining = math.max(0, math.min(MAX_SAFE, c.remaining + tonumber(ARGV[8])))
  saveBalance(c)
  return reply('ok', c)
end

return redis.error_reply('credits-change: unknown op ' .. tostring(op))
