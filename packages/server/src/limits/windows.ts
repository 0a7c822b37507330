// The window algorithm shared by the memory and Redis limiters.
//
// Each window is a ring of fixed time slots: a window of length W = N × slot counts the current
// (partial) slot plus the N slots before it, i.e. everything since the start of slot idx-N. That
// span is always at least W long, so no W-long interval — wherever it starts, even straddling a
// slot or minute edge — ever holds more than the limit (a fixed window would allow 2× at an edge).
// The price is being at most one slot stricter than an exact sliding log, whose memory would grow
// with the limit (rpd could be millions). retry-after is exact for this model: the time at which
// enough old slots have left the window.
import type { LimitName, LimitScope, ScopeLimits } from './types';

export interface WindowShape {
  /** Length of one slot. */
  slotMs: number;
  /** Slots in the window proper (W = slots × slotMs); the ring holds slots + 1. */
  slots: number;
}

// Slot sizes trade precision for counter count (Redis reads slots + 1 keys per window per admit).
const SECOND: WindowShape = { slotMs: 100, slots: 10 };
const MINUTE: WindowShape = { slotMs: 5_000, slots: 12 };
/** Day windows are coarser (hourly slots): a 24 h sliding window, not a calendar day. */
const DAY: WindowShape = { slotMs: 3_600_000, slots: 24 };

/** r = counted per request (admit), t = charged with tokens (addTokens), checked at admission. */
export type WindowKind = 'r' | 't';

interface WindowDef {
  name: LimitName;
  kind: WindowKind;
  perIp: boolean;
  shape: WindowShape;
}

const REQUEST_DEFS: readonly WindowDef[] = [
  { name: 'rps', kind: 'r', perIp: false, shape: SECOND },
  { name: 'rpm', kind: 'r', perIp: false, shape: MINUTE },
  { name: 'rpd', kind: 'r', perIp: false, shape: DAY },
  { name: 'ips', kind: 'r', perIp: true, shape: SECOND },
  { name: 'ipm', kind: 'r', perIp: true, shape: MINUTE },
  { name: 'ipd', kind: 'r', perIp: true, shape: DAY },
];
const TOKEN_DEFS: readonly WindowDef[] = [
  { name: 'tps', kind: 't', perIp: false, shape: SECOND },
  { name: 'tpm', kind: 't', perIp: false, shape: MINUTE },
  { name: 'tpd', kind: 't', perIp: false, shape: DAY },
];
const ADMIT_DEFS = [...REQUEST_DEFS, ...TOKEN_DEFS];

export interface PlannedWindow {
  /** Counter id (without slot): `scope|name`, or `scope|name|ip` for the per-IP windows. */
  id: string;
  scope: string;
  name: LimitName;
  limit: number;
  kind: WindowKind;
  shape: WindowShape;
}

/** A usable limit, or 0 for unlimited (absent, null, 0, negative, NaN). */
function limitOf(limits: ScopeLimits, name: LimitName): number {
  const v = limits[name];
  return typeof v === 'number' && v >= 1 && Number.isFinite(v) ? Math.floor(v) : 0;
}

/** IPv4-mapped IPv6 (`::ffff:1.2.3.4`, as Node reports on dual-stack sockets) is the same client as `1.2.3.4`. */
function normalizeIp(ip: string): string {
  if (!ip) return 'unknown';
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip;
}

function plan(scopes: readonly LimitScope[], defs: readonly WindowDef[], ip: string): PlannedWindow[] {
  const out: PlannedWindow[] = [];
  for (let i = 0; i < scopes.length; i++) {
    const { scope, limits } = scopes[i];
    // The same scope listed twice (e.g. key and app bound to one group) is one set of counters;
    // counting it twice would halve its limit, so keep the strictest limit of its entries.
    if (indexOfScope(scopes, scope, i) < i) continue;
    for (const def of defs) {
      let limit = limitOf(limits, def.name);
      for (let j = i + 1; j < scopes.length; j++) {
        if (scopes[j].scope !== scope) continue;
        const other = limitOf(scopes[j].limits, def.name);
        if (other && (!limit || other < limit)) limit = other;
      }
      if (!limit) continue;
      const id = def.perIp ? `${scope}|${def.name}|${ip}` : `${scope}|${def.name}`;
      out.push({ id, scope, name: def.name, limit, kind: def.kind, shape: def.shape });
    }
  }
  return out;
}

function indexOfScope(scopes: readonly LimitScope[], scope: string, upTo: number): number {
  for (let k = 0; k < upTo; k++) if (scopes[k].scope === scope) return k;
  return upTo;
}

const PER_IP = new Set(REQUEST_DEFS.filter((d) => d.perIp).map((d) => d.name));

/**
 * Plans of one scopes list, made once while the list stands: the gateway keeps a key's list until the
 * snapshot replaces one of its levels (gateway/run.ts), so planning its nine windows, ids and all, is
 * not done again on every call (~2.7 KB of garbage a call; docs/BENCHMARKS.md, eleventh pass). Lists
 * made for one call are planned and dropped as before.
 */
interface Plans {
  tokens?: readonly PlannedWindow[];
  /** The last admission's plan, with the client IP it was made for when a per-IP window is in it. */
  admit?: { ip: string | undefined; windows: readonly PlannedWindow[] };
}
const plans = new WeakMap<readonly LimitScope[], Plans>();

function plansOf(scopes: readonly LimitScope[]): Plans {
  let p = plans.get(scopes);
  if (!p) plans.set(scopes, (p = {}));
  return p;
}

/** Every window admit() must check: request, per-IP and token windows. Read-only: it may be shared. */
export function planAdmit(scopes: readonly LimitScope[], clientIp: string): readonly PlannedWindow[] {
  const p = plansOf(scopes);
  if (p.admit && (p.admit.ip === undefined || p.admit.ip === clientIp)) return p.admit.windows;
  const windows = plan(scopes, ADMIT_DEFS, normalizeIp(clientIp));
  p.admit = { ip: windows.some((w) => PER_IP.has(w.name)) ? clientIp : undefined, windows };
  return windows;
}

/** The token windows addTokens() charges. Read-only: it may be shared. */
export function planTokens(scopes: readonly LimitScope[]): readonly PlannedWindow[] {
  const p = plansOf(scopes);
  return (p.tokens ??= plan(scopes, TOKEN_DEFS, ''));
}

export const slotIndex = (shape: WindowShape, now: number) => Math.floor(now / shape.slotMs);

/** Whether a window holding `total` lets one more request in (r) or is still under its limit (t). */
export function fits(kind: WindowKind, total: number, limit: number): boolean {
  return kind === 'r' ? total + 1 <= limit : total < limit;
}

/**
 * Milliseconds until the window fits, given its slot counts oldest first (slots idx-N … idx).
 * Slot idx-N+j leaves the window when slot idx+j+1 begins.
 */
function waitMs(w: PlannedWindow, counts: ArrayLike<number>, now: number): number {
  let total = 0;
  for (let j = 0; j < counts.length; j++) total += counts[j];
  if (fits(w.kind, total, w.limit)) return 0;
  const idx = slotIndex(w.shape, now);
  for (let j = 0; j < counts.length; j++) {
    total -= counts[j];
    if (fits(w.kind, total, w.limit)) return (idx + j + 1) * w.shape.slotMs - now;
  }
  return (idx + counts.length) * w.shape.slotMs - now; // unreachable: an empty window always fits
}

/** Refusal for a blocked admission: the window that clears last decides, since all must clear. */
export function refusal(plan: readonly PlannedWindow[], counts: readonly ArrayLike<number>[], now: number) {
  let worst = 0;
  let wait = 0;
  for (let i = 0; i < plan.length; i++) {
    const ms = waitMs(plan[i], counts[i], now);
    if (ms > wait) [worst, wait] = [i, ms];
  }
  return { ok: false as const, scope: plan[worst].scope, limit: plan[worst].name, retryAfterMs: Math.max(1, wait) };
}
