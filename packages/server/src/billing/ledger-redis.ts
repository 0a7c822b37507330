// The ledger's store when instances share balances (Redis mode). Per limited account one hash
// `bal:<kind>:<id>` with `base` (the database quota as last read), `held` (live reservations) and
// `pending` (settled, not yet in the database): available = base − pending − held, and every change
// is one Lua script, so instances never both take the last quota.
//
// - Reserve: check-and-hold in one script, plus a record `resv:<trace>` and an expiry in the sorted set
//   `resv`. The instance renews its live reservations; one that dies stops renewing, and any instance
//   releases them once expired, so a crash holds quota for at most the lease.
// - Settle / adjust / log: one script releases the hold (only if still held), adds the cost to `pending`
//   and appends the entry to the shared journal list; the entry is then durable, whichever instance
//   dies. Each record is applied once (`resv:<trace>` becomes "S"), even if a reconnect resends it.
// - Flush: any instance claims up to maxBatch journal entries under a lease, writes them in one
//   transaction and, before the commit (with the account rows locked), moves their amounts from
//   `pending` into `base`. A claim whose owner died is taken over after the lease; if the owner got as
//   far as that step, the batch is written again only where its call logs are missing (writeEntries' dedupe).
// - A batch the database keeps refusing is split into claims of its parts, in one script, so a part
//   written (or set aside) is never written again and a part not yet written is never lost, whichever
//   instance dies in between (billing/ledger-quarantine.ts).
// - `base` is filled from the database inside a transaction that holds the row (FOR SHARE) while it
//   sets it, so a flush's `base − x` lands either before the read or after it, never both. Console
//   balance changes (recharge, deduct, quota edits) invalidate `base` through the bus after they commit,
//   and the next reservation reads it again: nothing is ever added twice.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { userIdOf, type ChangeEvent } from '../bus/index';
import type { Ctx } from '../context';
import { GatewayError } from '../gateway/errors';
import type { RedisConn } from '../redis/connect';
import type { AccountRef, Balances, Debit, Entry, LedgerStore, LedgerStoreFactory, Refusal, Reservation, StoreBatch } from './ledger-types';
import { clampEntry } from './ledger-write';
import { runScript, script } from '../redis/script';

// KEYS: resv zset, resv:<id>, then the balance hashes of the limited accounts. ARGV: id, amount, expiry,
// floor, shrinkBusy ('1' or '0'); see LedgerStore.reserve. Returns {'ok', held}, {'refused', i, busy}
// (1-based account; busy 1 when holds of calls in flight are in the way) or {'missing', i...} (bases to read first).
const RESERVE = `
if redis.call('EXISTS', KEYS[2]) == 1 then
  local held = string.match(redis.call('GET', KEYS[2]), '^L|(%d+)|')
  return {'ok', held or ARGV[2]}
end
local missing = {}
for i = 3, #KEYS do
  if redis.call('HEXISTS', KEYS[i], 'base') == 0 then missing[#missing + 1] = i - 2 end
end
if #missing > 0 then return {'missing', unpack(missing)} end
local want = tonumber(ARGV[2])
local floor = tonumber(ARGV[4])
local take = want
for i = 3, #KEYS do
  local v = redis.call('HMGET', KEYS[i], 'base', 'pending', 'held')
  local held = tonumber(v[3]) or 0
  local free = tonumber(v[1]) - (tonumber(v[2]) or 0)
  local left = free - held
  if free <= 0 or free < floor then return {'refused', i - 2, 0} end
  if left <= 0 or left < floor then return {'refused', i - 2, 1} end
  if left < want then
    if held > 0 and ARGV[5] ~= '1' then return {'refused', i - 2, 1} end
    if left < take then take = left end
  end
end
local amount = ARGV[2]
if take < want then amount = string.format('%.0f', take) end
local keys = {}
for i = 3, #KEYS do
  redis.call('HINCRBY', KEYS[i], 'held', amount)
  keys[#keys + 1] = KEYS[i]
end
redis.call('SET', KEYS[2], 'L|' .. amount .. '|' .. table.concat(keys, '|'), 'EX', 86400)
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
return {'ok', amount}
`;

const RELEASE_FN = `
local function release(rk)
  local v = redis.call('GET', rk)
  if not v or string.sub(v, 1, 1) ~= 'L' then return end
  local parts = {}
  for p in string.gmatch(v, '[^|]+') do parts[#parts + 1] = p end
  if parts[2] == '0' then return end
  for j = 3, #parts do redis.call('HINCRBY', parts[j], 'held', '-' .. parts[2]) end
end
`;

// KEYS: resv zset, resv:<id>, journal, then balance hashes. ARGV: id, entry JSON, the settlement's charge
// ('' for adjustments and logs), then one amount per hash. A settlement is charged at most what its
// accounts have left once its hold is back (never below zero): then every hash takes that, and the
// journal entry says so (`clamp`, applied by take()). Returns 1, 0 (recorded before) or {'missing', i...}.
const SETTLE =
  RELEASE_FN +
  `
if redis.call('GET', KEYS[2]) == 'S' then return 0 end
local charge = ARGV[3]
if charge ~= '' then
  local missing = {}
  for i = 4, #KEYS do
    if redis.call('HEXISTS', KEYS[i], 'base') == 0 then missing[#missing + 1] = i - 3 end
  end
  if #missing > 0 then return {'missing', unpack(missing)} end
end
release(KEYS[2])
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('SET', KEYS[2], 'S', 'EX', 120)
local entry = ARGV[2]
local amounts = {}
for i = 4, #KEYS do amounts[i] = ARGV[i] end
if charge ~= '' then
  local room = tonumber(charge)
  for i = 4, #KEYS do
    local v = redis.call('HMGET', KEYS[i], 'base', 'pending', 'held')
    local left = tonumber(v[1]) - (tonumber(v[2]) or 0) - (tonumber(v[3]) or 0)
    if left < room then room = left end
  end
  if room < 0 then room = 0 end
  if room < tonumber(charge) then
    local clamp = string.format('%.0f', room)
    for i = 4, #KEYS do amounts[i] = clamp end
    entry = '{"clamp":' .. clamp .. ',' .. string.sub(entry, 2)
  end
end
for i = 4, #KEYS do redis.call('HINCRBY', KEYS[i], 'pending', amounts[i]) end
redis.call('RPUSH', KEYS[3], entry)
return 1
`;

// KEYS: resv zset, resv:<id>. ARGV: id. Gives back a hold no settlement follows (a console write's).
const RELEASE =
  RELEASE_FN +
  `
release(KEYS[2])
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('DEL', KEYS[2])
return 1
`;

// KEYS: resv zset. ARGV: now, key prefix, limit. Releases expired reservations (a late settle still charges, once).
const EXPIRE =
  RELEASE_FN +
  `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, id in ipairs(ids) do
  local rk = ARGV[2] .. 'resv:' .. id
  local v = redis.call('GET', rk)
  if v and string.sub(v, 1, 1) == 'L' then
    release(rk)
    redis.call('SET', rk, 'X', 'EX', 86400)
  end
  redis.call('ZREM', KEYS[1], id)
end
return #ids
`;

// KEYS: journal, claims zset. ARGV: new claim id, now, lease end, max entries, owner, key prefix.
// Takes over the oldest expired claim if there is one, else claims the journal's head.
// Returns {id, data, applied, recovered} or nil.
const CLAIM = `
local exp = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[2], 'LIMIT', 0, 1)
if #exp > 0 then
  local ck = ARGV[6] .. 'claim:' .. exp[1]
  redis.call('ZADD', KEYS[2], ARGV[3], exp[1])
  redis.call('HSET', ck, 'owner', ARGV[5])
  local v = redis.call('HMGET', ck, 'data', 'applied')
  return {exp[1], v[1] or '[]', v[2] or '0', '1'}
end
local items = redis.call('LRANGE', KEYS[1], 0, tonumber(ARGV[4]) - 1)
if #items == 0 then return false end
redis.call('LTRIM', KEYS[1], #items, -1)
local data = '[' .. table.concat(items, ',') .. ']'
redis.call('HSET', ARGV[6] .. 'claim:' .. ARGV[1], 'data', data, 'owner', ARGV[5], 'applied', '0')
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
return {ARGV[1], data, '0', '0'}
`;

// KEYS: claim hash, then balance hashes. ARGV: owner, then per hash the written amount, negated. Runs before the commit.
const FINALIZE = `
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'applied', '1')
for i = 2, #KEYS do
  redis.call('HINCRBY', KEYS[i], 'pending', ARGV[i])
  if redis.call('HEXISTS', KEYS[i], 'base') == 1 then redis.call('HINCRBY', KEYS[i], 'base', ARGV[i]) end
end
return 1
`;

// KEYS: claims zset, claim hash. ARGV: claim id, owner, new score. Ends (score '') or re-expires a claim we own.
const RETURN_CLAIM = `
if redis.call('HGET', KEYS[2], 'owner') ~= ARGV[2] then return 0 end
if ARGV[3] == '' then
  redis.call('DEL', KEYS[2])
  redis.call('ZREM', KEYS[1], ARGV[1])
else
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
end
return 1
`;

// KEYS: claims zset, claim hash. ARGV: claim id, owner, lease end, key prefix, then per part its new claim
// id and its entries (JSON). Replaces a claim we own by claims of its parts, which keep its 'applied'.
// Returns that flag, or nil when the claim is no longer ours.
const SPLIT = `
if redis.call('HGET', KEYS[2], 'owner') ~= ARGV[2] then return false end
local applied = redis.call('HGET', KEYS[2], 'applied') or '0'
for i = 5, #ARGV, 2 do
  redis.call('HSET', ARGV[4] .. 'claim:' .. ARGV[i], 'data', ARGV[i + 1], 'owner', ARGV[2], 'applied', applied)
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[i])
end
redis.call('DEL', KEYS[2])
redis.call('ZREM', KEYS[1], ARGV[1])
return applied
`;

const S = { reserve: script(RESERVE), settle: script(SETTLE), release: script(RELEASE), expire: script(EXPIRE), claim: script(CLAIM), finalize: script(FINALIZE), returnClaim: script(RETURN_CLAIM), split: script(SPLIT) };


interface RedisBatch extends StoreBatch {
  id: string;
  /** Redis already moved the amounts (the previous owner's FINALIZE ran): only the database is left. */
  applied: boolean;
}

const TABLES = { user: ['users', 'user_id'], reseller: ['users', 'user_id'], app: ['apps', 'app_id'], app_key: ['app_keys', 'id'], group: ['groups', 'id'] } as const;

export class RedisLedgerStore implements LedgerStore {
  private readonly redis: Redis;
  private readonly p: string;
  private readonly leaseMs: number;
  /** This instance's live reservations, renewed until settled. */
  private live = new Set<string>();
  /** Records Redis refused (connection trouble), retried in order; each is idempotent. */
  private retry: (() => Promise<unknown>)[] = [];
  private readonly owner = randomUUID();
  private readonly timer: NodeJS.Timeout;
  private readonly unsubscribe: () => void;
  private ticking: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: Ctx,
    conn: RedisConn,
    private readonly balances: Balances,
    private readonly opts: { maxBatch: number; tick: () => void },
  ) {
    this.redis = conn.client;
    this.p = conn.prefix;
    this.leaseMs = conn.leaseMs;
    // Renew our reservations, release dead instances' ones, write what they left in the journal.
    this.timer = setInterval(() => {
      this.ticking = this.ticking.then(() => this.maintain()).then(opts.tick, (err: unknown) => this.ctx.log.warn({ err }, 'ledger maintenance failed'));
    }, Math.min(1000, Math.max(100, Math.floor(this.leaseMs / 3))));
    this.timer.unref();
    this.unsubscribe = ctx.bus.subscribe((e) => this.onChange(e));
  }

  private bal(a: AccountRef): string {
    return `${this.p}bal:${a.kind}:${a.id}`;
  }

  private limited(accounts: readonly AccountRef[]): AccountRef[] {
    const seen = new Set<string>();
    return accounts.filter((a) => a.limited && !seen.has(this.bal(a)) && seen.add(this.bal(a)));
  }

  async available(a: AccountRef): Promise<number> {
    for (let i = 0; i < 5; i++) {
      const [base, pending, held] = await this.redis.hmget(this.bal(a), 'base', 'pending', 'held');
      if (base !== null) return Number(base) - Number(pending ?? 0) - Number(held ?? 0);
      await this.loadBase(a);
    }
    throw new Error('the balance kept changing while it was read');
  }

  async outstanding(a: AccountRef): Promise<{ held: number; pending: number }> {
    const [held, pending] = await this.redis.hmget(this.bal(a), 'held', 'pending');
    return { held: Number(held ?? 0), pending: Number(pending ?? 0) };
  }

  async reserve(r: Reservation, floor = r.amount, shrinkBusy = true): Promise<Refusal | undefined> {
    const accounts = this.limited(r.accounts);
    if (!accounts.length) return undefined;
    try {
      for (let i = 0; i < 5; i++) {
        const reply = (await runScript(
          this.redis,
          S.reserve,
          [`${this.p}resv`, `${this.p}resv:${r.traceId}`, ...accounts.map((a) => this.bal(a))],
          [r.traceId, r.amount, Date.now() + this.leaseMs, floor, shrinkBusy ? '1' : '0'],
        )) as [string, ...(number | string)[]];
        if (reply[0] === 'ok') {
          r.amount = Number(reply[1]);
          this.live.add(r.traceId);
          return undefined;
        }
        if (reply[0] === 'refused') return { account: accounts[Number(reply[1]) - 1]!, busy: Number(reply[2]) === 1 };
        await this.loadBases(accounts, reply.slice(1));
      }
    } catch (err) {
      this.ctx.log.error({ err }, 'reserving quota in Redis failed');
    }
    throw new GatewayError(503, 'service_unavailable', 'The gateway cannot check your balance right now. Please retry.', 'server_error');
  }

  private async loadBases(accounts: readonly AccountRef[], missing: (number | string)[]): Promise<void> {
    for (const n of missing) await this.loadBase(accounts[Number(n) - 1]!);
  }

  async release(r: Reservation): Promise<void> {
    this.live.delete(r.traceId);
    await runScript(this.redis, S.release, [`${this.p}resv`, `${this.p}resv:${r.traceId}`], [r.traceId]);
  }

  /** Reads the account's stored quota while holding its row, and sets `base` if still unset (see the top). */
  private async loadBase(a: AccountRef): Promise<void> {
    const [table, column] = TABLES[a.kind];
    await this.ctx.db.transaction().execute(async (trx) => {
      let q = (trx as any).selectFrom(table).select('quota').where(column, '=', a.id);
      if (this.ctx.dialect === 'postgres') q = q.forShare();
      const row = (await q.executeTakeFirst()) as { quota: number } | undefined;
      // A deleted account has nothing to spend.
      await this.redis.hsetnx(this.bal(a), 'base', Number(row?.quota ?? 0));
    });
  }

  async record(entry: Entry, r?: Reservation): Promise<void> {
    const id = r?.traceId ?? `x${randomUUID().replace(/-/g, '')}`;
    const money = new Map<string, { account: AccountRef; amount: number }>();
    for (const d of entry.debits) {
      if (!d.account.limited) continue;
      const m = money.get(this.bal(d.account)) ?? { account: d.account, amount: 0 };
      money.set(this.bal(d.account), { account: d.account, amount: m.amount + d.amount });
    }
    // A settlement that costs something is clamped to what is left (see SETTLE); its charge is any debit's.
    const charge = r && money.size ? String(entry.debits.find((d) => d.account.limited)!.amount) : '';
    const accounts = [...money.values()].map((m) => m.account);
    const settle = (clamp: string) =>
      runScript(this.redis, S.settle, [`${this.p}resv`, `${this.p}resv:${id}`, `${this.p}journal`, ...money.keys()], [id, JSON.stringify(entry), clamp, ...[...money.values()].map((m) => m.amount)]) as Promise<
        number | [string, ...(number | string)[]]
      >;
    const send = async () => {
      for (let i = 0; i < 5; i++) {
        const reply = await settle(charge);
        if (!Array.isArray(reply)) return;
        try {
          await this.loadBases(accounts, reply.slice(1));
        } catch (err) {
          // The database is out of reach: the charge goes into the journal now, unclamped, rather than wait in this process.
          this.ctx.log.warn({ err }, 'reading a balance to bound a charge failed; recording it as settled');
          break;
        }
      }
      await settle('');
    };
    if (r) this.live.delete(r.traceId);
    try {
      if (this.retry.length) throw new Error('earlier records are still waiting');
      await send();
    } catch (err) {
      // Kept in order and sent again by maintain(); the script applies each record once.
      this.ctx.log.warn({ err }, 'recording a charge in Redis failed; will retry');
      this.retry.push(send);
    }
  }

  private async maintain(): Promise<void> {
    while (this.retry.length) {
      await this.retry[0]!();
      this.retry.shift();
    }
    const now = Date.now();
    const ids = [...this.live];
    for (let i = 0; i < ids.length; i += 500) {
      const args = ids.slice(i, i + 500).flatMap((id) => [now + this.leaseMs, id]);
      await this.redis.zadd(`${this.p}resv`, 'XX', ...args);
    }
    await runScript(this.redis, S.expire, [`${this.p}resv`], [now, this.p, 1000]);
  }

  async take(): Promise<RedisBatch | undefined> {
    while (this.retry.length) {
      await this.retry[0]!();
      this.retry.shift();
    }
    const now = Date.now();
    const reply = (await runScript(this.redis, S.claim, [`${this.p}journal`, `${this.p}claims`], [randomUUID(), now, now + this.leaseMs, this.opts.maxBatch, this.owner, this.p])) as [string, string, string, string] | null;
    if (!reply) return undefined;
    const [id, data, applied, recovered] = reply;
    const entries = (JSON.parse(data) as (Entry & { clamp?: number })[]).map(({ clamp, ...entry }) => {
      // SETTLE lowered this settlement to what its accounts had left.
      if (clamp !== undefined) clampEntry(entry, clamp);
      return entry;
    });
    if (recovered === '1') this.ctx.log.warn({ claim: id, entries: entries.length, applied: applied === '1' }, 'taking over a ledger batch whose writer stopped');
    return { id, entries, applied: applied === '1', dedupe: applied === '1', more: entries.length >= this.opts.maxBatch };
  }

  private moves(totals: Debit[]): [string[], number[]] {
    const money = new Map<string, number>();
    for (const d of totals) if (d.account.limited) money.set(this.bal(d.account), (money.get(this.bal(d.account)) ?? 0) + d.amount);
    return [[...money.keys()], [...money.values()]];
  }

  async beforeCommit(batch: StoreBatch): Promise<void> {
    const b = batch as RedisBatch;
    if (b.applied) return;
    // Not a recovered batch, so every entry is written: its amounts move from `pending` into `base`.
    const [keys, amounts] = this.moves(b.entries.flatMap((e) => e.debits));
    // Negated in JavaScript: a Lua number would reach Redis as "1e+15" once large enough.
    const ok = await runScript(this.redis, S.finalize, [`${this.p}claim:${b.id}`, ...keys], [this.owner, ...amounts.map((x) => String(-x))]);
    if (ok !== 1) throw new Error('another instance took over this ledger batch');
  }

  /** The batch is written (and the ledger moved its totals into `balances`): the claim ends. */
  async afterCommit(batch: StoreBatch, _totals: Debit[]): Promise<void> {
    const b = batch as RedisBatch;
    await runScript(this.redis, S.returnClaim, [`${this.p}claims`, `${this.p}claim:${b.id}`], [b.id, this.owner, '']);
  }

  async failed(batch: StoreBatch): Promise<void> {
    const b = batch as RedisBatch;
    // Expired now: the next flush (of any instance) takes it over, keeping what FINALIZE may have done.
    await runScript(this.redis, S.returnClaim, [`${this.p}claims`, `${this.p}claim:${b.id}`], [b.id, this.owner, Date.now()]);
  }

  async split(batch: StoreBatch, parts: Entry[][]): Promise<RedisBatch[]> {
    const b = batch as RedisBatch;
    const ids = parts.map(() => randomUUID());
    const args = parts.flatMap((entries, i) => [ids[i]!, JSON.stringify(entries)]);
    const applied = await runScript(this.redis, S.split, [`${this.p}claims`, `${this.p}claim:${b.id}`], [b.id, this.owner, Date.now() + this.leaseMs, this.p, ...args]);
    if (applied === null) throw new Error('another instance took over this ledger batch');
    return parts.map((entries, i) => ({ id: ids[i]!, entries, applied: applied === '1', dedupe: applied === '1' }));
  }


  /** A console write to a balance (after its commit): the next reservation reads `base` again. */
  private onChange(e: ChangeEvent): void {
    const keys: string[] = [];
    if (e.entity === 'users') {
      const rowIds = new Set<string>();
      for (const id of e.ids) {
        const userId = userIdOf(id);
        if (userId !== undefined) keys.push(`${this.p}bal:user:${userId}`);
        else rowIds.add(id);
      }
      if (rowIds.size) for (const userId of this.balances.userIdsOf(rowIds)) keys.push(`${this.p}bal:user:${userId}`);
    } else if (e.entity === 'apps') {
      for (const appId of this.balances.appIdsOf(new Set(e.ids))) keys.push(`${this.p}bal:app:${appId}`);
    } else if (e.entity === 'app_keys' || e.entity === 'groups') {
      for (const id of e.ids) keys.push(`${this.p}bal:${e.entity === 'groups' ? 'group' : 'app_key'}:${id}`);
    }
    if (!keys.length) return;
    const pipe = this.redis.pipeline();
    for (const k of keys) pipe.hdel(k, 'base');
    pipe.exec().catch((err: unknown) => this.ctx.log.warn({ err }, 'invalidating balances in Redis failed'));
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    this.unsubscribe();
    await this.ticking;
    await this.maintain().catch((err: unknown) => this.ctx.log.warn({ err }, 'ledger maintenance failed'));
  }
}

/** Redis mode's ledger store (redis/mode.ts): batches of up to 200 journal entries. */
export const redisLedgerStore =
  (conn: RedisConn): LedgerStoreFactory =>
  (ctx, balances, flush) =>
    new RedisLedgerStore(ctx, conn, balances, { maxBatch: 200, tick: flush });
