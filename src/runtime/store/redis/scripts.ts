/**
 * The Lua scripts behind the Redis/Valkey store. Redis runs a script atomically (no other command
 * interleaves), so each state transition — claim, fenced update, takeover — is one compare-and-set,
 * the same guarantee the SQL stores get from the primary key and `UPDATE … WHERE lease_token = ?`.
 *
 * A row is one JSON string (the `DedupRow`/`SagaRow` object itself): a claim on a fresh key then costs
 * one GET + SET + ZADD inside the script and no decoding, which keeps it near a bare `SET NX`. Numbers
 * survive the bundled cjson (14 significant digits ≥ any epoch-ms timestamp before year 5138).
 * Unresolved rows (pending, compensating) carry no TTL and sit in a sorted set scored by their lease
 * expiry, which is what `listStale` reads. Resolved rows get a native TTL up to their `expiresAt`.
 * Status lists are passed as `,a,b,` so membership is one `string.find` with plain matching.
 */

const HELPERS = `
local function has(csv, s) return type(s) == 'string' and string.find(csv, ',' .. s .. ',', 1, true) ~= nil end
`;

/**
 * KEYS: row, stale set. ARGV: now, lease expiry (score), unresolved statuses, the new row (JSON).
 * Returns 1 when inserted (the caller knows the row it wrote), else the live row that won (JSON).
 * A resolved row past `expiresAt` counts as absent (its native TTL may simply not have fired yet) and
 * is replaced; an operator's `resolution` on it is carried over, and then the new row comes back as {1, row}.
 */
export const CLAIM = `${HELPERS}
local cur = redis.call('GET', KEYS[1])
local new = ARGV[4]
if cur then
  local r = cjson.decode(cur)
  if has(ARGV[3], r.status) or r.expiresAt > tonumber(ARGV[1]) then return cur end
  if type(r.resolution) == 'string' then
    local n = cjson.decode(new)
    n.resolution = r.resolution
    new = cjson.encode(n)
  end
end
redis.call('SET', KEYS[1], new)
redis.call('ZADD', KEYS[2], ARGV[2], KEYS[1])
if new ~= ARGV[4] then return {1, new} end
return 1
`;

/**
 * An operator's resolution of a pending row nobody holds (lease expired). KEYS: row, stale set.
 * ARGV: now, patch (JSON). Leaves the stale set; expires natively at the row's original `expiresAt`.
 * Returns the resolved row (JSON), or false.
 */
export const RESOLVE = `${HELPERS}
local cur = redis.call('GET', KEYS[1])
if not cur then return false end
local r = cjson.decode(cur)
local now = tonumber(ARGV[1])
if r.status ~= 'pending' or r.leaseExpiresAt > now then return false end
-- The native TTL keeps the original window: a row freed for a retry (expiresAt = now) must still
-- show who freed it until that retry's claim carries the record over.
local ttl = r.expiresAt - now
for k, v in pairs(cjson.decode(ARGV[2])) do r[k] = v end
local out = cjson.encode(r)
redis.call('SET', KEYS[1], out, 'PX', ttl < 1 and 1 or ttl)
redis.call('ZREM', KEYS[2], KEYS[1])
return out
`;

/**
 * The fenced update every post-claim mutation is. KEYS: row, stale set.
 * ARGV: token, allowed statuses, now, action (set | delete), unresolved statuses, patch (JSON object).
 * After a `set` the row is re-indexed: unresolved → stale set at its lease expiry and no TTL (a plain
 * SET drops one); resolved → out of the set, native TTL to `expiresAt`.
 * Returns 1 when applied, 0 when fenced (token or status mismatch, or the row is gone).
 */
export const FENCED = `${HELPERS}
local row = KEYS[1]
local cur = redis.call('GET', row)
if not cur then return 0 end
local r = cjson.decode(cur)
if r.leaseToken ~= ARGV[1] or not has(ARGV[2], r.status) then return 0 end
if ARGV[4] == 'delete' then
  redis.call('DEL', row)
  redis.call('ZREM', KEYS[2], row)
  return 1
end
for k, v in pairs(cjson.decode(ARGV[6])) do r[k] = v end
if has(ARGV[5], r.status) then
  redis.call('SET', row, cjson.encode(r))
  redis.call('ZADD', KEYS[2], r.leaseExpiresAt, row)
else
  redis.call('ZREM', KEYS[2], row)
  local ttl = r.expiresAt - tonumber(ARGV[3])
  redis.call('SET', row, cjson.encode(r), 'PX', ttl < 1 and 1 or ttl)
end
return 1
`;

/**
 * After the plain-command claim (store.ts: `SET NX GET` + `ZADD NX` in one round trip) found an existing
 * row, its ZADD may have indexed a resolved row: drop that entry unless the row is pending (then the entry
 * is its own). KEYS: row, stale set. Safe against races: the check and the ZREM are one atomic step.
 */
export const UNINDEX_RESOLVED = `
local cur = redis.call('GET', KEYS[1])
if cur and string.find(cur, '"status":"pending"', 1, true) then return 0 end
return redis.call('ZREM', KEYS[2], KEYS[1])
`;

/**
 * Completion of a row this store object claimed and still holds (store.ts remembers the row it wrote),
 * so the client sends the finished row and nothing is decoded or re-encoded here: the fast path is one
 * GET, two plain `string.find`s, SET and ZREM. KEYS: row, stale set. ARGV: the `"leaseToken":"…"` text
 * as JSON.stringify writes it, the finished row (JSON), its native TTL (ms), the token.
 * Why a substring proves ownership: the row is one flat object (nested JSON is stored as strings), and
 * inside a JSON string every quote is escaped, so `"leaseToken":"<t>"` and `"status":"pending"` can only
 * be the top-level fields. A token that cjson spelled differently (it escapes `/`) is checked by decoding.
 * Returns 1 when applied, 0 when fenced — the same answer as FENCED.
 */
export const COMPLETE_HELD = `
local cur = redis.call('GET', KEYS[1])
if not cur then return 0 end
if not (string.find(cur, ARGV[1], 1, true) and string.find(cur, '"status":"pending"', 1, true)) then
  local r = cjson.decode(cur)
  if r.leaseToken ~= ARGV[4] or r.status ~= 'pending' then return 0 end
end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
redis.call('ZREM', KEYS[2], KEYS[1])
return 1
`;

/**
 * Re-lease an expired row under a new token. KEYS: row, stale set.
 * ARGV: expected token ('' = none), new token, now, new lease expiry, allowed statuses,
 * count the attempt and clear the error ('1'/'0'), stamp `updatedAt` ('1'/'0').
 */
export const TAKE_OVER = `${HELPERS}
local row = KEYS[1]
local cur = redis.call('GET', row)
if not cur then return false end
local r = cjson.decode(cur)
local token = type(r.leaseToken) == 'string' and r.leaseToken or ''
local lease = type(r.leaseExpiresAt) == 'number' and r.leaseExpiresAt or 0
if not has(ARGV[5], r.status) or token ~= ARGV[1] or lease > tonumber(ARGV[3]) then return false end
r.leaseToken = ARGV[2]
r.leaseExpiresAt = tonumber(ARGV[4])
if ARGV[6] == '1' then
  r.attempts = r.attempts + 1
  r.error = cjson.null
end
if ARGV[7] == '1' then r.updatedAt = tonumber(ARGV[3]) end
local out = cjson.encode(r)
redis.call('SET', row, out, 'KEEPTTL')
redis.call('ZADD', KEYS[2], ARGV[4], row)
return out
`;

/**
 * KEYS: stale set. ARGV: now, limit, unresolved statuses. Index entries whose row is gone or
 * resolved (an operator deleted it) are dropped on the way.
 */
export const LIST_STALE = `${HELPERS}
local out = {}
for _, row in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])) do
  if #out >= tonumber(ARGV[2]) then break end
  local cur = redis.call('GET', row)
  if cur and has(ARGV[3], cjson.decode(cur).status) then
    table.insert(out, cur)
  else
    redis.call('ZREM', KEYS[1], row)
  end
end
return out
`;

/** KEYS: row. ARGV: now, unresolved statuses. Deletes a resolved row past `expiresAt`; returns 1/0. */
export const PRUNE_ONE = `${HELPERS}
local cur = redis.call('GET', KEYS[1])
if not cur then return 0 end
local r = cjson.decode(cur)
if has(ARGV[2], r.status) or r.expiresAt > tonumber(ARGV[1]) then return 0 end
return redis.call('DEL', KEYS[1])
`;
