// Exact integer arithmetic for prices (docs/SPEC.md §9: 500000 quota = $1; ARCHITECTURE: no floats in the ledger).
// Ratios are stored as JS numbers (quota per token = $/1K × 500), so `tokens × ratio` in floating point can
// land a hair above an integer (0.7 × 10 = 7.000000000000001) and `ceil` would then charge one unit too many
// (the original rounds every item up, docs/ORIGINAL-GATEWAY.md §1.13). We read every ratio back as the decimal the admin meant —
// 15 significant digits, the most a double round-trips — and do the sums in BigInt.

/** x = n / 10^scale. */
interface Decimal {
  n: bigint;
  scale: number;
  /** n as a Number when it is a safe integer, else NaN (the fast path in `priceTotal` then steps aside). */
  f: number;
}

const DECIMAL = /^(\d+)(?:\.(\d*))?(?:e([+-]\d+))?$/;

/** A non-negative finite number, else 0: NaN, ±Infinity and negatives never bill (nor refund). */
export function clean(x: number | undefined | null): number {
  return typeof x === 'number' && Number.isFinite(x) && x > 0 ? x : 0;
}

const INTEGER: Decimal[] = [];
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const cache = new Map<number, Decimal>();

/** `x` as an exact decimal, rounded to 15 significant digits (drops the ×500 conversion's float noise). */
function toDecimal(x: number): Decimal {
  // The hot path prices every call twice: token counts are small integers and a catalogue has few
  // distinct ratios, so answer those from memory instead of formatting and parsing again.
  const c = clean(x);
  if (Number.isInteger(c) && c < 1_000_000) return (INTEGER[c] ??= { n: BigInt(c), scale: 0, f: c });
  const hit = cache.get(c);
  if (hit) return hit;
  const d = parseDecimal(c);
  if (cache.size < 10_000) cache.set(c, d);
  return d;
}

function parseDecimal(c: number): Decimal {
  const m = DECIMAL.exec(c.toPrecision(15));
  if (!m) return { n: 0n, scale: 0, f: 0 };
  const frac = (m[2] ?? '').replace(/0+$/, '');
  const exp = Number(m[3] ?? 0) - frac.length;
  const n = exp >= 0 ? BigInt(m[1] + frac) * 10n ** BigInt(exp) : BigInt(m[1] + frac);
  return { n, scale: Math.max(0, -exp), f: n <= MAX_SAFE ? Number(n) : NaN };
}

/** ceil(Σ quantity × ratio), exactly. Quantities may be fractional (seconds, minutes). */
export function ceilSum(terms: readonly (readonly [quantity: number, ratio: number])[]): bigint {
  const products = terms.map(([q, r]) => {
    const a = toDecimal(q);
    const b = toDecimal(r);
    return { n: a.n * b.n, scale: a.scale + b.scale };
  });
  const scale = Math.max(0, ...products.map((p) => p.scale));
  let sum = 0n;
  for (const p of products) sum += p.n * 10n ** BigInt(scale - p.scale);
  return ceilDiv(sum, 10n ** BigInt(scale));
}

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

/**
 * The group discount in basis points (core `discountToBp`: 10000 = full price). Invalid values charge full
 * price rather than nothing: a broken discount must not make a model free.
 */
export function cleanBp(bp: number | undefined): number {
  if (typeof bp !== 'number' || !Number.isFinite(bp)) return 10_000;
  return Math.max(0, Math.round(bp));
}

/** ceil(base × bp / 10000), rounding up like the original (docs/ORIGINAL-GATEWAY.md §1.13). */
export function discount(base: bigint, bp: number | undefined): bigint {
  return ceilDiv(base * BigInt(cleanBp(bp)), 10_000n);
}

/** A quota as a safe integer; anything beyond 2^53 − 1 is clamped (docs/ORIGINAL-GATEWAY.md §1.13 clamps at 1e12). */
export function toQuota(q: bigint): number {
  if (q <= 0n) return 0;
  return q > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(q);
}

/** 10^0 … 10^22: every one an exact double. */
const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);
const SAFE = Number.MAX_SAFE_INTEGER;

/** ⌈a / b⌉ for non-negative integers with a + b ≤ 2^53 − 1: the float quotient may be one off, the remainder corrects it. */
function ceilDivSmall(a: number, b: number): number {
  let q = Math.floor(a / b);
  let r = a - q * b;
  if (r < 0) {
    q -= 1;
    r += b;
  } else if (r >= b) {
    q += 1;
    r -= b;
  }
  return r > 0 ? q + 1 : q;
}

/**
 * `ceilSum` then `discount`, both as quotas: { base, quota }. Every call is priced several times, and its
 * products and sums nearly always stay exact integers below 2^53, so they are done in Number arithmetic, each
 * step checked (NaN and overflow fail the check); anything larger goes the BigInt way. Same answers either way.
 */
export function priceTotal(items: readonly { quantity: number; unit_price: number }[], bp: number | undefined): { base: number; quota: number } {
  const cleanedBp = cleanBp(bp);
  let scale = 0;
  for (const i of items) scale = Math.max(scale, toDecimal(i.quantity).scale + toDecimal(i.unit_price).scale);
  let sum = 0;
  let exact = scale < POW10.length;
  for (let k = 0; exact && k < items.length; k++) {
    const a = toDecimal(items[k]!.quantity);
    const b = toDecimal(items[k]!.unit_price);
    const product = a.f * b.f;
    const scaled = product * POW10[scale - a.scale - b.scale]!;
    sum += scaled;
    exact = product <= SAFE && scaled <= SAFE && sum <= SAFE;
  }
  if (exact && sum + POW10[scale]! <= SAFE) {
    const base = ceilDivSmall(sum, POW10[scale]!);
    if (base * cleanedBp + 10_000 <= SAFE) return { base, quota: ceilDivSmall(base * cleanedBp, 10_000) };
  }
  const base = ceilSum(items.map((i) => [i.quantity, i.unit_price] as const));
  return { base: toQuota(base), quota: toQuota(discount(base, cleanedBp)) };
}
