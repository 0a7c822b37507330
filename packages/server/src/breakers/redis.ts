// Breakers shared by every instance (Redis mode): one small hash per breaker (`<prefix><id>`: state,
// probe and cool-down times, wait, last error, the window's calls/failures as `w:c:<slot>` /
// `w:f:<slot>` fields and an agent's failing keys as `w:k:<key id>` = slot), changed only by Lua
// scripts that apply policy.ts's rules atomically. An index hash (`<prefix>index`: id →
// "state,retryAt,probeUntil,coolUntil") lists every breaker that is not plainly closed; each instance
// reads it every second into the local view picking uses, and takes its own changes from the scripts'
// answers at once. Successes that are not probes are counted locally and written once a second (a
// failure carries its breaker's pending ones), so a healthy call costs no Redis round trip.
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { runScript, script } from '../redis/script';
import { MAX_COOLDOWN_MS, SLOTS, slotOf } from './policy';
import type { BreakerSettings, BreakerState, BreakerStatus, BreakerStore, BreakerView, Claim, LastError, Outcome } from './types';

const COMMON_LUA = `
local function n(x) return string.format('%d', x) end
local function save(h, idx, id, st, ra, pu, cu, bo, ttl, now)
  redis.call('HSET', h, 'st', st, 'ra', n(ra), 'pu', n(pu), 'cu', n(cu), 'bo', n(bo))
  redis.call('PEXPIRE', h, ttl)
  if st == 'closed' and cu <= now then redis.call('HDEL', idx, id)
  else redis.call('HSET', idx, id, st .. ',' .. n(ra) .. ',' .. n(pu) .. ',' .. n(cu)) end
end
local function load(h)
  local s = redis.call('HMGET', h, 'st', 'ra', 'pu', 'cu', 'bo')
  return s[1] or 'closed', tonumber(s[2]) or 0, tonumber(s[3]) or 0, tonumber(s[4]) or 0, tonumber(s[5]) or 0
end
`;

// KEYS: hash, index. ARGV: id, now, slot, slots, calls to add, failures to add, probe outcome
// ('ok' | 'fail' | 'neutral' | ''), hold (1 = never opens), cool ms, min calls, error rate %,
// cool-down ms, max cool-down ms, ttl ms, the last error's status, code, message ('' = none), then the
// failing key ('' = none) and how many different failing keys open it (0 = any).
const RECORD_LUA = COMMON_LUA + `
local h, idx = KEYS[1], KEYS[2]
local id, now, slot, slots = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local add, fail, probe, hold, cool = tonumber(ARGV[5]), tonumber(ARGV[6]), ARGV[7], ARGV[8] == '1', tonumber(ARGV[9])
local minCalls, rate, cooldown, maxCooldown, ttl = tonumber(ARGV[10]), tonumber(ARGV[11]), tonumber(ARGV[12]), tonumber(ARGV[13]), ARGV[14]
local st, ra, pu, cu, bo = load(h)
if add > 0 then redis.call('HINCRBY', h, 'w:c:' .. n(slot), add) end
if fail > 0 then redis.call('HINCRBY', h, 'w:f:' .. n(slot), fail) end
if cool > 0 and now + cool > cu then cu = now + cool end
if ARGV[15] ~= '' then redis.call('HSET', h, 'ls', ARGV[15], 'lc', ARGV[16], 'lm', ARGV[17], 'la', n(now)) end
if fail > 0 and ARGV[18] ~= '' then redis.call('HSET', h, 'w:k:' .. ARGV[18], n(slot)) end
local calls, failures, keys, window = 0, 0, 0, {}
local all = redis.call('HGETALL', h)
for i = 1, #all, 2 do
  local kind, s = string.match(all[i], '^w:([cf]):(-?%d+)$')
  local key = string.match(all[i], '^w:k:')
  if kind then
    if tonumber(s) <= slot - slots then redis.call('HDEL', h, all[i])
    else
      window[#window + 1] = all[i]
      if kind == 'c' then calls = calls + tonumber(all[i + 1]) else failures = failures + tonumber(all[i + 1]) end
    end
  elseif key then
    if tonumber(all[i + 1]) <= slot - slots then redis.call('HDEL', h, all[i])
    else
      window[#window + 1] = all[i]
      keys = keys + 1
    end
  end
end
if probe ~= '' and st == 'half_open' then
  if probe == 'ok' then
    st, ra, pu, bo = 'closed', 0, 0, 0
    if #window > 0 then redis.call('HDEL', h, unpack(window)) end
  elseif probe == 'fail' then
    bo = math.min(math.max(bo * 2, cooldown), math.max(maxCooldown, cooldown))
    st, ra, pu = 'open', now + bo, 0
  else
    pu = 0
  end
elseif fail > 0 and st == 'closed' and not hold and calls >= minCalls and failures * 100 >= rate * calls and keys >= tonumber(ARGV[19]) then
  st, ra, pu, bo = 'open', now + cooldown, 0, cooldown
end
save(h, idx, id, st, ra, pu, cu, bo, ttl, now)
return {st, n(ra), n(pu), n(cu)}
`;

// KEYS: hash, index. ARGV: id, now, lease ms, ttl ms, force (1 = whatever the wait). Returns the claim and the view.
const CLAIM_LUA = COMMON_LUA + `
local h, idx = KEYS[1], KEYS[2]
local id, now, lease, ttl = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
local st, ra, pu, cu, bo = load(h)
local answer = 'busy'
if st == 'closed' then
  answer = 'closed'
  if cu <= now then redis.call('HDEL', idx, id) end
  return {answer, st, n(ra), n(pu), n(cu)}
end
if ARGV[5] == '1' or (st == 'open' and ra <= now) or (st == 'half_open' and pu <= now) then
  answer, st, pu = 'probe', 'half_open', now + lease
  save(h, idx, id, st, ra, pu, cu, bo, ttl, now)
end
return {answer, st, n(ra), n(pu), n(cu)}
`;

const RECORD = script(RECORD_LUA);
const CLAIM = script(CLAIM_LUA);

/** A breaker's hash outlives its longest wait, then goes once idle. */
const TTL_MS = MAX_COOLDOWN_MS + 3_600_000;
const POLL_MS = 1000;

export interface RedisBreakerOptions {
  prefix: string;
  log: FastifyBaseLogger;
}

const viewOf = (st: string, ra: string, pu: string, cu: string): BreakerView => ({ state: st as BreakerState, retryAt: Number(ra), probeUntil: Number(pu), coolUntil: Number(cu) });

export function createRedisBreakers(redis: Redis, { prefix, log }: RedisBreakerOptions): BreakerStore {
  const index = `${prefix}index`;
  let local = new Map<string, BreakerView>();
  /** Successes not yet written, per breaker. */
  const pending = new Map<string, number>();
  let settings: BreakerSettings | undefined;
  let warned = 0;
  const warn = (err: unknown, what: string) => {
    if (Date.now() - warned < 10_000) return;
    warned = Date.now();
    log.warn({ err }, what);
  };

  const learn = (id: string, view: BreakerView, now: number) => {
    if (view.state === 'closed' && view.coolUntil <= now) local.delete(id);
    else local.set(id, view);
  };

  async function write(id: string, add: number, fail: number, o: Partial<Outcome>, s: BreakerSettings, now: number): Promise<void> {
    const e = o.error;
    const reply = (await runScript(redis, RECORD, [prefix + id, index], [
      id, now, slotOf(now, s.windowMs), SLOTS, add, fail, o.probe ? (o.kind ?? '') : '', o.hold ? 1 : 0, Math.max(0, Math.round(o.coolMs ?? 0)),
      s.minCalls, s.errorRatePct, s.cooldownMs, MAX_COOLDOWN_MS, TTL_MS,
      e ? String(e.status) : '', e?.code ?? '', e?.message.slice(0, 300) ?? '',
      fail > 0 ? (o.key ?? '') : '', o.keysNeeded ?? 0,
    ])) as [string, string, string, string];
    learn(id, viewOf(...reply), now);
  }

  async function flush(): Promise<void> {
    if (!settings || !pending.size) return;
    const s = settings;
    const batch = [...pending];
    pending.clear();
    const now = Date.now();
    await Promise.all(batch.map(([id, n]) => write(id, n, 0, {}, s, now).catch((err: unknown) => warn(err, 'writing breaker counts to Redis failed'))));
  }

  async function poll(): Promise<void> {
    const all = await redis.hgetall(index);
    const next = new Map<string, BreakerView>();
    for (const [id, value] of Object.entries(all)) {
      const [st = 'closed', ra = '0', pu = '0', cu = '0'] = value.split(',');
      next.set(id, viewOf(st, ra, pu, cu));
    }
    local = next;
  }

  const timer = setInterval(() => {
    void flush();
    poll().catch((err: unknown) => warn(err, 'reading breakers from Redis failed'));
  }, POLL_MS);
  timer.unref();
  const started = poll().catch((err: unknown) => warn(err, 'reading breakers from Redis failed'));

  return {
    view: (id) => local.get(id),

    record(id, outcome, s, now = Date.now()) {
      settings = s;
      if (outcome.kind === 'ok' && !outcome.probe && !outcome.coolMs) {
        pending.set(id, (pending.get(id) ?? 0) + 1);
        return undefined;
      }
      if (outcome.kind === 'neutral' && !outcome.probe && !outcome.coolMs && !outcome.error) return undefined;
      const add = pending.get(id) ?? 0;
      pending.delete(id);
      const counted = outcome.kind === 'neutral' ? 0 : 1;
      return write(id, add + counted, outcome.kind === 'fail' ? 1 : 0, outcome, s, now).catch((err: unknown) => warn(err, 'recording a breaker outcome in Redis failed'));
    },

    async claim(id, leaseMs, now = Date.now(), force = false): Promise<Claim> {
      try {
        const [answer, ...view] = (await runScript(redis, CLAIM, [prefix + id, index], [id, now, Math.round(leaseMs), TTL_MS, force ? 1 : 0])) as [Claim, string, string, string, string];
        learn(id, viewOf(...view), now);
        return answer;
      } catch (err) {
        // Redis away: let the call through rather than refuse it for the breaker's sake.
        warn(err, 'claiming a breaker probe in Redis failed');
        return 'closed';
      }
    },

    async status(ids, s, now = Date.now()): Promise<BreakerStatus[]> {
      await started;
      const pipe = redis.pipeline();
      for (const id of ids) pipe.hgetall(prefix + id);
      const replies = (await pipe.exec()) ?? [];
      const slot = slotOf(now, s.windowMs);
      return ids.map((id, i) => {
        const h = (replies[i]?.[1] ?? {}) as Record<string, string>;
        let calls = pending.get(id) ?? 0;
        let failures = 0;
        for (const [field, value] of Object.entries(h)) {
          const m = /^w:([cf]):(-?\d+)$/.exec(field);
          if (!m || Number(m[2]) <= slot - SLOTS || Number(m[2]) > slot) continue;
          if (m[1] === 'c') calls += Number(value);
          else failures += Number(value);
        }
        const lastError: LastError | null = h.la ? { status: Number(h.ls), code: h.lc ?? '', message: h.lm ?? '', at: Number(h.la) } : null;
        return { id, ...viewOf(h.st ?? 'closed', h.ra ?? '0', h.pu ?? '0', h.cu ?? '0'), calls, failures, lastError };
      });
    },

    async reset() {
      pending.clear();
      local = new Map();
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
        cursor = next;
        if (keys.length) await redis.del(...keys);
      } while (cursor !== '0');
    },

    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
