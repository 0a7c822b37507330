// Redis limiter for many gateway instances: the same slot windows as the memory limiter, one Redis
// hash per window (`<prefix><scope>|<name>[|ip]`, field = slot index, value = count) that expires
// once idle, and one Lua script per admission so check-and-count is atomic across instances.
// A hash per window rather than a key per slot: an admission reads ~10 small keys instead of ~130.
// Slot indices come from the caller's clock: instances on NTP agree to milliseconds, which only
// moves a request between neighbouring slots. Scopes of one admission live in different hash slots,
// so this needs a single Redis (or a proxy), not Redis Cluster.
import type { Redis } from 'ioredis';
import type { AdmitResult, LimitScope, RateLimiter } from './types';
import { planAdmit, planTokens, refusal, slotIndex, type PlannedWindow } from './windows';
import { runScript, script } from '../redis/script';

// Adds to the current slot. Only when that starts a new slot field (HINCRBY returns the amount) is
// there anything else to do: push the expiry out to when this slot leaves the window (the same
// instant for every write in the slot), and drop fields that left the window once there are
// clearly more than it holds (the window reads only its own slots; stale ones merely take memory).
// Slot fields are formatted with %d: how redis.call turns a Lua number into a string differs
// between Redis versions (%.17g or shortest form, which may use an exponent).
const ADD_LUA = `
local function slot(x) return string.format('%d', x) end
local function add(key, first, m, amount, ttl)
  if redis.call('HINCRBY', key, slot(first + m - 1), amount) ~= amount then return end
  redis.call('PEXPIRE', key, ttl)
  if redis.call('HLEN', key) > 2 * m then
    for _, f in ipairs(redis.call('HKEYS', key)) do
      if tonumber(f) < first then redis.call('HDEL', key, f) end
    end
  end
end
`;

// KEYS: one hash per window. ARGV: window count, then per window: limit, kind (r|t), index of the
// oldest slot in the window, slot count, ttl ms of the current slot.
// Returns 1 when admitted (request windows counted), else every slot count (oldest first, window
// after window) so the caller works out which window blocks, and for how long, with the same code
// as the memory limiter.
const ADMIT_LUA = ADD_LUA + `
local n = tonumber(ARGV[1])
local counts = {}
local blocked = false
for i = 1, n do
  local a = 2 + (i - 1) * 5
  local limit, first, m = tonumber(ARGV[a]), tonumber(ARGV[a + 2]), tonumber(ARGV[a + 3])
  local fields = {}
  for j = 1, m do fields[j] = slot(first + j - 1) end
  local vals = redis.call('HMGET', KEYS[i], unpack(fields))
  local total = 0
  for j = 1, m do
    local c = tonumber(vals[j]) or 0
    counts[#counts + 1] = c
    total = total + c
  end
  if ARGV[a + 1] == 'r' then
    if total + 1 > limit then blocked = true end
  elseif total >= limit then
    blocked = true
  end
end
if blocked then return counts end
for i = 1, n do
  local a = 2 + (i - 1) * 5
  if ARGV[a + 1] == 'r' then add(KEYS[i], tonumber(ARGV[a + 2]), tonumber(ARGV[a + 3]), 1, ARGV[a + 4]) end
end
return 1
`;

// KEYS: one hash per token window. ARGV: amount, then per window: oldest slot, slot count, ttl ms.
const TOKENS_LUA = ADD_LUA + `
for i = 1, #KEYS do
  local a = 2 + (i - 1) * 3
  add(KEYS[i], tonumber(ARGV[a]), tonumber(ARGV[a + 1]), tonumber(ARGV[1]), ARGV[a + 2])
end
return 1
`;

// KEYS: the request windows an admission counted in; ARGV: the slot of each. Un-counts only slots
// still present, so an expired window is not recreated.
const RELEASE_LUA = `
for i, key in ipairs(KEYS) do
  if redis.call('HEXISTS', key, ARGV[i]) == 1 then redis.call('HINCRBY', key, ARGV[i], -1) end
end
return 1
`;

const ADMIT = script(ADMIT_LUA);
const RELEASE = script(RELEASE_LUA);
const TOKENS = script(TOKENS_LUA);


export interface RedisLimiterOptions {
  /** Key prefix, so several deployments (or tests) can share one Redis. */
  prefix?: string;
}

/** Keep a slot a second longer than its window needs it, against small clock differences. */
const TTL_SLACK_MS = 1_000;

export function createRedisLimiter(redis: Redis, options: RedisLimiterOptions = {}): RateLimiter {
  const prefix = options.prefix ?? 'fg:rl:';
  const key = (w: PlannedWindow) => prefix + w.id;
  /** Milliseconds the current slot must live: until it leaves the window, plus slack. */
  const ttl = (w: PlannedWindow, idx: number, now: number) => Math.ceil((idx + w.shape.slots + 1) * w.shape.slotMs - now + TTL_SLACK_MS);

  return {
    async admit(scopes: readonly LimitScope[], clientIp: string, now = Date.now()): Promise<AdmitResult> {
      const plan = planAdmit(scopes, clientIp);
      if (plan.length === 0) return { ok: true };
      const keys: string[] = [];
      const args: (string | number)[] = [plan.length];
      const countedKeys: string[] = [];
      const countedSlots: number[] = [];
      for (const w of plan) {
        const idx = slotIndex(w.shape, now);
        keys.push(key(w));
        args.push(w.limit, w.kind, idx - w.shape.slots, w.shape.slots + 1, ttl(w, idx, now));
        if (w.kind === 'r') {
          countedKeys.push(key(w));
          countedSlots.push(idx);
        }
      }

      const reply = await runScript(redis, ADMIT, keys, args);
      if (Array.isArray(reply)) {
        const all = reply.map(Number);
        const perWindow: number[][] = [];
        let k = 0;
        for (const w of plan) {
          perWindow.push(all.slice(k, k + w.shape.slots + 1));
          k += w.shape.slots + 1;
        }
        return refusal(plan, perWindow, now);
      }
      if (countedKeys.length === 0) return { ok: true };
      let released = false;
      return {
        ok: true,
        release: async () => {
          if (released) return;
          released = true;
          await runScript(redis, RELEASE, countedKeys, countedSlots);
        },
      };
    },

    async addTokens(scopes: readonly LimitScope[], tokens: number, now = Date.now()): Promise<void> {
      const amount = Math.round(tokens);
      if (!(amount > 0)) return;
      const plan = planTokens(scopes);
      if (plan.length === 0) return;
      const args: number[] = [amount];
      for (const w of plan) {
        const idx = slotIndex(w.shape, now);
        args.push(idx - w.shape.slots, w.shape.slots + 1, ttl(w, idx, now));
      }
      await runScript(redis, TOKENS, plan.map(key), args);
    },

    async close(): Promise<void> {
      // The connection belongs to the caller.
    },
  };
}
