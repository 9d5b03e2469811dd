/**
 * The Lua scripts behind the Redis/Valkey store. Redis runs a script atomically (no other command
 * interleaves), so each state transition — fenced update, takeover, resolution — is one compare-and-set,
 * the same guarantee the SQL stores get from the primary key and `UPDATE … WHERE lease_token = ?`.
 *
 * A row is one JSON string (the `DedupRow`/`SagaRow` object itself) and the only key a row has: no
 * index to keep in step, so every script touches exactly one key, except the two that sweep a batch of
 * rows a SCAN returned (LIST_STALE, PRUNE). Numbers survive the bundled cjson (14 significant digits
 * ≥ any epoch-ms timestamp before year 5138). Unresolved rows (pending, compensating) carry no TTL;
 * resolved rows get a native TTL up to their `expiresAt`. Status lists are passed as `,a,b,` so
 * membership is one `string.find` with plain matching.
 *
 * Substring checks on a row's text (COMPLETE_HELD, LIST_STALE) are sound because a row is one flat
 * object (nested JSON is stored as strings) and inside a JSON string every quote is escaped: `"status":"…"`
 * and `"leaseToken":"…"` can only be the top-level fields, spelled that way by JSON.stringify and cjson.
 */

const HELPERS = `
local function has(csv, s) return type(s) == 'string' and string.find(csv, ',' .. s .. ',', 1, true) ~= nil end
local function clock(arg)
  local n = tonumber(arg)
  if n then return n end
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function ms(n) return string.format('%d', n) end
`;

/**
 * Every script that judges or sets a time takes "now" as an argument: empty means the server's clock
 * (`TIME`, read inside the script — the store's default, so application servers whose clocks disagree
 * still agree on every lease and expiry), a number the caller's (`clock: 'caller'`, and the saga table).
 * TIME before a write needs effects replication: always so on Redis ≥ 7 and Valkey, the default since 5.
 */

/**
 * The dedup claim. KEYS: row. ARGV: now, replace ('1': a resolved row past `expiresAt` counts as absent),
 * the new row's text up to its lease expiry (rows.ts claimPrefix), its tail, lease ms, TTL ms.
 * Returns {1, now} when inserted (the caller knows the row it wrote), {1, now, row} when it carried an
 * operator's `resolution` over from the replaced row, and {0, now, row} when a row is there. Without
 * `replace` a row there is returned undecoded (a replay costs a GET); the caller asks again with it when
 * that row turns out to be resolved and expired.
 */
export const CLAIM_ROW = `${HELPERS}
local now = clock(ARGV[1])
local cur = redis.call('GET', KEYS[1])
local tail = ARGV[4]
if cur then
  if ARGV[2] ~= '1' then return {0, now, cur} end
  local r = cjson.decode(cur)
  if r.status == 'pending' or r.expiresAt > now then return {0, now, cur} end
  if type(r.resolution) == 'string' then tail = string.sub(tail, 1, -6) .. cjson.encode(r.resolution) .. '}' end
end
local row = ARGV[3] .. ms(now + tonumber(ARGV[5])) .. ',"attempts":1,"createdAt":' .. ms(now) ..
  ',"completedAt":null,"expiresAt":' .. ms(now + tonumber(ARGV[6])) .. tail
redis.call('SET', KEYS[1], row)
if tail ~= ARGV[4] then return {1, now, row} end
return {1, now}
`;

/**
 * The saga intent claim (the saga table keeps the caller's clock). KEYS: row.
 * ARGV: now, unresolved statuses, the new row (JSON).
 * Returns 1 when inserted (the caller knows the row it wrote), else the live row that won (JSON).
 * A resolved row past `expiresAt` counts as absent (its native TTL may simply not have fired yet) and
 * is replaced.
 */
export const CLAIM = `${HELPERS}
local cur = redis.call('GET', KEYS[1])
if cur then
  local r = cjson.decode(cur)
  if has(ARGV[2], r.status) or r.expiresAt > tonumber(ARGV[1]) then return cur end
end
redis.call('SET', KEYS[1], ARGV[3])
return 1
`;

/**
 * An operator's resolution of a pending row nobody holds (lease expired). KEYS: row.
 * ARGV: now, patch (JSON), '1' when resolved as completed. A completed row keeps its full window from
 * the resolution; a row freed for a retry (`expiresAt = now`) expires natively at its original
 * `expiresAt`, so it still shows who freed it until that retry's claim carries the record over.
 * Returns the resolved row (JSON), or false.
 */
export const RESOLVE = `${HELPERS}
local cur = redis.call('GET', KEYS[1])
if not cur then return false end
local r = cjson.decode(cur)
local now = clock(ARGV[1])
if r.status ~= 'pending' or r.leaseExpiresAt > now then return false end
local ttl = r.expiresAt - now
for k, v in pairs(cjson.decode(ARGV[2])) do r[k] = v end
r.completedAt = now
if ARGV[3] == '1' then
  r.expiresAt = now + (r.expiresAt - r.createdAt)
  ttl = r.expiresAt - now
else
  -- A window of length 0 (the SQL stores' expires_at = created_at): already past for a claim on the
  -- extrapolated clock too, which may trail TIME by part of a round trip.
  r.expiresAt = r.createdAt
end
local out = cjson.encode(r)
redis.call('SET', KEYS[1], out, 'PX', ttl < 1 and 1 or ttl)
return out
`;

/**
 * The fenced update every post-claim mutation is. KEYS: row.
 * ARGV: token, allowed statuses, now, action (set | delete), unresolved statuses, patch (JSON object),
 * timed fields (JSON object: field → milliseconds after now, or ''), '1' when a row that resolves here
 * restarts its window (`expiresAt = now + (expiresAt − createdAt)`: the dedup table's complete and fail).
 * After a `set` an unresolved row has no TTL (a plain SET drops one); a resolved one expires natively
 * at `expiresAt`. Returns {1, now} when set, 1 when deleted, 0 when fenced (token or status mismatch,
 * or the row is gone).
 */
export const FENCED = `${HELPERS}
local row = KEYS[1]
local cur = redis.call('GET', row)
if not cur then return 0 end
local r = cjson.decode(cur)
if r.leaseToken ~= ARGV[1] or not has(ARGV[2], r.status) then return 0 end
if ARGV[4] == 'delete' then return redis.call('DEL', row) end
local now = clock(ARGV[3])
for k, v in pairs(cjson.decode(ARGV[6])) do r[k] = v end
if ARGV[7] ~= '' then
  for k, v in pairs(cjson.decode(ARGV[7])) do r[k] = now + v end
end
if has(ARGV[5], r.status) then
  redis.call('SET', row, cjson.encode(r))
else
  if ARGV[8] == '1' then r.expiresAt = now + (r.expiresAt - r.createdAt) end
  local ttl = r.expiresAt - now
  redis.call('SET', row, cjson.encode(r), 'PX', ttl < 1 and 1 or ttl)
end
return {1, now}
`;

/**
 * Completion of a row this store object claimed and still holds (store.ts remembers the row it wrote),
 * so the client sends the finished row and nothing is decoded or re-encoded here: the fast path is one
 * GET, two plain `string.find`s and a SET. KEYS: row. ARGV: the `"leaseToken":"…"` text as
 * JSON.stringify writes it, the finished row, '' or its tail, the window (ms, ≥ 1; also the native TTL,
 * passed to SET as the text it came in: a Lua number would be formatted again), the token. With the server's clock known to the client (server-clock.ts) the row is whole, its times
 * `completedAt` = that now and `expiresAt` = now + window, and the tail is ''. Otherwise the row stops
 * after `"completedAt":` and the script adds `TIME`, the window's end and the tail.
 * A token that cjson spelled differently (it escapes `/`) is checked by decoding.
 * Returns 1 (whole row) or {1, now} (`TIME` read) when applied, 0 when fenced — the same answer as FENCED.
 */
export const COMPLETE_HELD = `
local cur = redis.call('GET', KEYS[1])
if not cur then return 0 end
if not (string.find(cur, ARGV[1], 1, true) and string.find(cur, '"status":"pending"', 1, true)) then
  local r = cjson.decode(cur)
  if r.leaseToken ~= ARGV[5] or r.status ~= 'pending' then return 0 end
end
if ARGV[3] == '' then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[4])
  return 1
end
local w = tonumber(ARGV[4])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ms = string.format
redis.call('SET', KEYS[1], ARGV[2] .. ms('%d', now) .. ',"expiresAt":' .. ms('%d', now + w) .. ARGV[3], 'PX', w < 1 and 1 or w)
return {1, now}
`;

/**
 * Re-lease an expired row under a new token. KEYS: row.
 * ARGV: expected token ('' = none), new token, now, lease ms, allowed statuses,
 * count the attempt and clear the error ('1'/'0'), stamp `updatedAt` ('1'/'0').
 */
export const TAKE_OVER = `${HELPERS}
local row = KEYS[1]
local cur = redis.call('GET', row)
if not cur then return false end
local r = cjson.decode(cur)
local now = clock(ARGV[3])
local token = type(r.leaseToken) == 'string' and r.leaseToken or ''
local lease = type(r.leaseExpiresAt) == 'number' and r.leaseExpiresAt or 0
if not has(ARGV[5], r.status) or token ~= ARGV[1] or lease > now then return false end
r.leaseToken = ARGV[2]
r.leaseExpiresAt = now + tonumber(ARGV[4])
if ARGV[6] == '1' then
  r.attempts = r.attempts + 1
  r.error = cjson.null
end
if ARGV[7] == '1' then r.updatedAt = now end
local out = cjson.encode(r)
redis.call('SET', row, out, 'KEEPTTL')
return out
`;

/**
 * The unresolved rows with an expired lease among a batch of row keys (one SCAN page). KEYS: the rows.
 * ARGV: now, unresolved statuses. A row is decoded only when its text names an unresolved status, so
 * a page of completed rows costs a GET and a substring search each. Keys gone since the SCAN are skipped.
 */
export const LIST_STALE = `${HELPERS}
local now = clock(ARGV[1])
local open = {}
for s in string.gmatch(ARGV[2], '[^,]+') do table.insert(open, '"status":"' .. s .. '"') end
local out = {}
for _, row in ipairs(KEYS) do
  local cur = redis.call('GET', row)
  if cur then
    for _, needle in ipairs(open) do
      if string.find(cur, needle, 1, true) then
        -- An unreadable row is skipped here (listCorrupt reports it), not the whole listing failed.
        local ok, r = pcall(cjson.decode, cur)
        if ok and has(ARGV[2], r.status) and r.leaseExpiresAt <= now then table.insert(out, cur) end
        break
      end
    end
  end
end
return out
`;

/** KEYS: rows (one SCAN page). ARGV: now, unresolved statuses. Deletes resolved rows past `expiresAt`. */
export const PRUNE = `${HELPERS}
local now = clock(ARGV[1])
local removed = 0
for _, row in ipairs(KEYS) do
  local cur = redis.call('GET', row)
  local ok, r = pcall(cjson.decode, cur or 'null')
  if ok and type(r) == 'table' then
    if not has(ARGV[2], r.status) and r.expiresAt <= now then removed = removed + redis.call('DEL', row) end
  end
end
return removed
`;

/**
 * An operator's repair of a corrupt row (store.ts `repairCorrupt`), compare-and-set on the whole value.
 * KEYS: row. ARGV: the value as listed, the repaired row (JSON; '' deletes the row). The native TTL stays.
 * Returns 1 when applied, 0 when the value changed since it was listed.
 */
export const REPAIR = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] == '' then redis.call('DEL', KEYS[1]) else redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL') end
return 1
`;
