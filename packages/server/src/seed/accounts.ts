// The seed's accounts: resellers with their own discount group, hundreds of users (some under a
// reseller), ~3 apps per user and ~2 keys per app, opening balances. Sign-in works with the printed
// password; app keys are generated, sealed and configured by the server's own functions, balances
// move through moveQuota with their deal records. Accounts are named `seed-…`: a re-run finds them and
// only adds the missing ones.
import { appResource } from '@fastgate/core/entities/app';
import { APP_KEY_DEFAULTS, APP_KEY_PREFIX } from '@fastgate/core/entities/app-key';
import { QuotaType } from '@fastgate/core/entities/user';
import { availableModelIds } from '../catalogue/access';
import { moveQuota, type Movement } from '../billing/deals';
import type { Ctx } from '../context';
import type { UserRow } from '../db/schema';
import type { GroupRecord } from '../catalogue/groups';
import { expiryColumns, settingsColumns } from '../console/app-keys';
import { appColumns } from '../console/app';
import { newId } from '../http/ids';
import { generateAppKey, sealKey } from '../security/api-keys';
import { hashPassword } from '../security/password';
import { CHAT_TYPES, type Catalogue } from './catalogue';
import type { ConsoleClient } from './console-client';
import { Random } from './random';

const DAY = 86_400_000;
const USD = 500_000;
const APP_NAMES = ['默认应用', '客服机器人', '知识库问答', '写作助手', '数据分析', '翻译服务', '代码助手', '营销文案', 'Slack Bot', 'Internal Tools'];

const resellerAccount = (n: number) => `seed-reseller-${String(n).padStart(2, '0')}`;
const userAccount = (n: number) => `seed-user-${String(n).padStart(4, '0')}`;

interface SeedKey {
  id: string;
  key_mask: string;
}
interface SeedApp {
  app_id: number;
  keys: SeedKey[];
}
export interface SeedUser {
  user_id: number;
  account: string;
  /** 1 = the heaviest caller (Zipf rank). */
  rank: number;
  rid: number;
  /** Calls start at the account's creation. */
  created_at: number;
  apps: SeedApp[];
  ips: string[];
  /** Usable model id → the group it bills through (null: full price), from catalogue/access.ts. */
  models: Map<string, GroupRecord | null>;
}

export interface Accounts {
  users: SeedUser[];
  resellers: UserRow[];
  created: { resellers: number; users: number; apps: number; keys: number; deals: number };
}

export interface AccountPlan {
  users: number;
  resellers: number;
  /** Start of the call window: most users exist before it, some join during it. */
  windowStart: number;
  password: string;
  rng: Random;
}

/** Which reseller (1-based, 0 = none) owns user n: three in ten users, the heaviest spread over all. */
const resellerOf = (n: number, resellers: number) => (resellers > 0 && n % 10 % 3 === 0 && n % 10 !== 0 ? (Math.floor(n / 10) % resellers) + 1 : 0);

/** Number from a seed account name (`seed-user-0042` → 42). */
const numberOf = (account: string) => Number(account.slice(account.lastIndexOf('-') + 1));

function accountRow(role: 'reseller' | 'user', account: string, hash: string, rid: number, createdAt: number, groups: string[]) {
  return {
    id: newId(),
    role,
    account,
    name: account.replace('seed-', ''),
    email: `${account}@example.com`,
    phone: '',
    avatar: '',
    profile: '',
    password_hash: hash,
    rid,
    quota: 0,
    used_quota: 0,
    quota_expires_at: null,
    // A reseller buys at 80 % of list (its floor), so its 90 % group leaves it a margin.
    ...(role === 'reseller' ? { floor_bp: 8000 } : {}),
    groups: JSON.stringify(groups),
    status: 1,
    remark: 'seed',
    login_ip: '',
    login_time: null,
    login_domain: '',
    failed_logins: 0,
    locked_until: null,
    created_at: createdAt,
    updated_at: createdAt,
  };
}

export async function ensureAccounts(ctx: Ctx, plan: AccountPlan, catalogue: Catalogue, resellerConsole: (u: UserRow) => Promise<ConsoleClient>): Promise<Accounts> {
  const { db } = ctx;
  const { rng } = plan;
  const created = { resellers: 0, users: 0, apps: 0, keys: 0, deals: 0 };
  // One hash for every seed account: scrypt per account would cost minutes and prove nothing more.
  const hash = await hashPassword(plan.password);
  const now = Date.now();

  // Resellers (floor 80 %), each with its own public group reselling the chat models at 90 % to its users.
  const haveResellers = new Set((await db.selectFrom('users').select('account').where('role', '=', 'reseller').where('account', 'like', 'seed-reseller-%').execute()).map((r) => r.account));
  for (let n = 1; n <= plan.resellers; n++) {
    if (haveResellers.has(resellerAccount(n))) continue;
    await db.insertInto('users').values(accountRow('reseller', resellerAccount(n), hash, 0, plan.windowStart - rng.int(30, 365) * DAY, [])).execute();
    created.resellers++;
  }
  const resellers = await db.selectFrom('users').selectAll().where('role', '=', 'reseller').where('account', 'like', 'seed-reseller-%').orderBy('account').execute();
  const chatIds = catalogue.models.filter((m) => CHAT_TYPES.includes(m.type) && (catalogue.popularity.get(m.id) ?? 0) > 0).map((m) => m.id);
  for (const r of resellers) {
    const name = `${r.account} 9折`;
    if (await db.selectFrom('groups').select('id').where('user_id', '=', r.user_id).where('name', '=', name).executeTakeFirst()) continue;
    const client = await resellerConsole(r);
    try {
      await client.post('/group/create', { name, discount: 90, weight: 5, is_public: true, models: chatIds, remark: 'seed' });
    } finally {
      await client.close();
    }
  }
  const ridOf = new Map(resellers.map((r) => [numberOf(r.account), r.user_id]));

  // Users: the heaviest exist before the window; of the rest ~40 % join during it (a few today).
  const vip = catalogue.groups.get('VIP')?.id;
  const enterprise = catalogue.groups.get('企业')?.id;
  const haveUsers = new Set((await db.selectFrom('users').select('account').where('role', '=', 'user').where('account', 'like', 'seed-user-%').execute()).map((r) => r.account));
  const fresh: number[] = [];
  const rows = [];
  for (let n = 1; n <= plan.users; n++) {
    if (haveUsers.has(userAccount(n))) continue;
    const joins = n > 20 && rng.chance(0.4);
    const createdAt = joins ? plan.windowStart + rng.next() * (now - plan.windowStart) : plan.windowStart - rng.int(1, 400) * DAY - rng.int(0, DAY);
    const groups = [...(n <= 10 && enterprise ? [enterprise] : []), ...(n % 5 === 2 && vip ? [vip] : [])];
    rows.push(accountRow('user', userAccount(n), hash, ridOf.get(resellerOf(n, resellers.length)) ?? 0, Math.round(createdAt), groups));
    fresh.push(n);
  }
  for (let i = 0; i < rows.length; i += 200) await db.insertInto('users').values(rows.slice(i, i + 200)).execute();
  created.users = rows.length;

  const userRows = await db.selectFrom('users').selectAll().where('role', '=', 'user').where('account', 'like', 'seed-user-%').execute();
  const freshSet = new Set(fresh.map(userAccount));

  // Apps as createDefaultApp writes them; keys as insertAppKeys seals and configures them (the same
  // functions), all in one transaction: one commit per app would cost minutes on PostgreSQL.
  const limits = appColumns(ctx, appResource.fields.parse({ name: APP_NAMES[0] }));
  const columns = new Map<number, { keyCols: object }>();
  for (const u of userRows.filter((r) => freshSet.has(r.account))) {
    const keyCols = await settingsColumns(ctx, u.user_id, APP_KEY_DEFAULTS);
    columns.set(u.user_id, { keyCols: { ...keyCols, ...expiryColumns(undefined, keyCols) } });
  }
  await db.transaction().execute(async (trx) => {
    for (const u of userRows.filter((r) => freshSet.has(r.account))) {
      const { keyCols } = columns.get(u.user_id)!;
      const appRows = Array.from({ length: rng.pick([1, 2, 3, 3, 3, 4, 5]) }, (_, a) => {
        const at = Math.min(now, u.created_at + a * rng.int(0, 5) * DAY);
        return { id: newId(), user_id: u.user_id, ...limits, name: APP_NAMES[a % APP_NAMES.length]!, used_quota: 0, created_at: at, updated_at: at };
      });
      const apps = await trx.insertInto('apps').values(appRows as never).returning(['app_id', 'created_at']).execute();
      const keyRows = apps.flatMap((app) =>
        Array.from({ length: rng.pick([1, 2, 2, 2, 3]) }, () => ({
          id: newId(),
          user_id: u.user_id,
          app_id: app.app_id,
          ...sealKey(ctx.secrets, generateAppKey(APP_KEY_PREFIX)),
          ...keyCols,
          created_at: app.created_at,
          updated_at: app.created_at,
        })),
      );
      await trx.insertInto('app_keys').values(keyRows as never).execute();
      created.apps += apps.length;
      created.keys += keyRows.length;
    }
  });

  // Opening balances: admins recharge resellers, resellers allocate to their users (deal records on both sides).
  const openings = new Map<number, number>();
  for (const u of userRows.filter((r) => freshSet.has(r.account))) openings.set(u.user_id, Math.round((2000 / numberOf(u.account) ** 0.7 + 20) * USD));
  const resellerNeeds = new Map<number, number>();
  for (const u of userRows) if (openings.has(u.user_id) && u.rid) resellerNeeds.set(u.rid, (resellerNeeds.get(u.rid) ?? 0) + openings.get(u.user_id)!);
  const resellerName = new Map(resellers.map((r) => [r.user_id, r.account]));
  const moves: Movement[] = [];
  for (const r of resellers) {
    const need = resellerNeeds.get(r.user_id) ?? 0;
    if (need > 0 || created.resellers) moves.push({ userId: r.user_id, quota: need + 1000 * USD, type: QuotaType.Recharge, creator: 'admin', remark: 'seed' });
  }
  for (const u of userRows) {
    const quota = openings.get(u.user_id);
    if (quota) moves.push({ userId: u.user_id, quota, type: QuotaType.Recharge, creator: resellerName.get(u.rid) ?? 'admin', remark: 'seed', ...(u.rid ? { from: u.rid } : {}) });
  }
  // The resellers' recharges land before their allocations: an allocation takes only what the
  // reseller's balance holds already (billing/deals.ts withDebitsHeld).
  await moveQuota(ctx, moves.filter((m) => m.from === undefined));
  await moveQuota(ctx, moves.filter((m) => m.from !== undefined));
  created.deals = moves.length;

  // Joined, not `in (ids…)`: thousands of ids would pass SQLite's bound-parameter limit.
  const seedUsers = (t: 'apps' | 'app_keys') => db.selectFrom(t).innerJoin('users', 'users.user_id', `${t}.user_id`).where('users.role', '=', 'user').where('users.account', 'like', 'seed-user-%');
  const apps = await seedUsers('apps').select(['apps.app_id', 'apps.user_id']).orderBy('apps.app_id').execute();
  const keys = await seedUsers('app_keys').select(['app_keys.id', 'app_keys.app_id', 'app_keys.key_mask']).where('app_keys.status', '=', 1).orderBy('app_keys.id').execute();
  const keysOf = new Map<number, SeedKey[]>();
  for (const k of keys) keysOf.set(k.app_id, [...(keysOf.get(k.app_id) ?? []), { id: k.id, key_mask: k.key_mask }]);
  const appsOf = new Map<number, SeedApp[]>();
  for (const a of apps) if (keysOf.has(a.app_id)) appsOf.set(a.user_id, [...(appsOf.get(a.user_id) ?? []), { app_id: a.app_id, keys: keysOf.get(a.app_id)! }]);

  const users: SeedUser[] = [];
  for (const u of userRows.sort((a, b) => numberOf(a.account) - numberOf(b.account))) {
    const own = appsOf.get(u.user_id);
    if (!own?.length) continue;
    const n = numberOf(u.account);
    // Documentation address ranges (RFC 5737): one to three client addresses per user.
    const ips = Array.from({ length: 1 + (n % 3) }, (_, i) => `${['203.0.113', '198.51.100', '192.0.2'][(n + i) % 3]}.${(n * 7 + i * 31) % 254 + 1}`);
    users.push({ user_id: u.user_id, account: u.account, rank: n, rid: u.rid, created_at: u.created_at, apps: own, ips, models: await availableModelIds(ctx, u) });
  }
  return { users, resellers, created };
}
