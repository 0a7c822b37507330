// Exact integer arithmetic for prices (docs/SPEC.md §9: 500000 quota = $1; ARCHITECTURE: no floats in the ledger).
// Ratios are stored as JS numbers (quota per token = $/1K × 500), so `tokens × ratio` in floating point can
// land a hair above an integer (0.7 × 10 = 7.000000000000001) and `ceil` would then charge one unit too many
// (the original rounds every item up, docs/ORIGINAL-GATEWAY.md §1.13). We read every ratio back as the decimal the admin meant —
// 15 significant digits, the most a double round-trips — and do the sums in BigInt.

/** x = n / 10^scale. */
interface Decimal {
  n: bigint;
  scale: number;
}

const DECIMAL = /^(\d+)(?:\.(\d*))?(?:e([+-]\d+))?$/;

/** A non-negative finite number, else 0: NaN, ±Infinity and negatives never bill (nor refund). */
export function clean(x: number | undefined | null): number {
  return typeof x === 'number' && Number.isFinite(x) && x > 0 ? x : 0;
}

const INTEGER: Decimal[] = [];
const cache = new Map<number, Decimal>();

/** `x` as an exact decimal, rounded to 15 significant digits (drops the ×500 conversion's float noise). */
function toDecimal(x: number): Decimal {
  // The hot path prices every call twice: token counts are small integers and a catalogue has few
  // distinct ratios, so answer those from memory instead of formatting and parsing again.
  const c = clean(x);
  if (Number.isInteger(c) && c < 1_000_000) return (INTEGER[c] ??= { n: BigInt(c), scale: 0 });
  const hit = cache.get(c);
  if (hit) return hit;
  const d = parseDecimal(c);
  if (cache.size < 10_000) cache.set(c, d);
  return d;
}

function parseDecimal(c: number): Decimal {
  const m = DECIMAL.exec(c.toPrecision(15));
  if (!m) return { n: 0n, scale: 0 };
  const frac = (m[2] ?? '').replace(/0+$/, '');
  const exp = Number(m[3] ?? 0) - frac.length;
  const n = BigInt(m[1] + frac);
  return exp >= 0 ? { n: n * 10n ** BigInt(exp), scale: 0 } : { n, scale: -exp };
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
