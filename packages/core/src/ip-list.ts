// IP lists (docs/SPEC.md §5): one entry per line. Apps and app keys take single addresses, `a-b` ranges and
// CIDR blocks; user lists may also use `*` wildcards (`*`, `10.1.*.*`). The console stores the
// normalized array; the gateway matches with `ipAllowed` (docs/ORIGINAL-GATEWAY.md §1.2 CheckIp).

type Family = 4 | 6;
interface Addr {
  family: Family;
  value: bigint;
}
interface Span {
  family: Family;
  lo: bigint;
  hi: bigint;
}

export type IpListResult = { ok: true; list: string[] } | { ok: false; line: string };

const BITS: Record<Family, number> = { 4: 32, 6: 128 };

function parseV4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const p of parts) {
    // Leading zeros are refused: "010" is octal to some tools and decimal to others.
    if (!/^(0|[1-9]\d{0,2})$/.test(p) || Number(p) > 255) return undefined;
    value = (value << 8n) | BigInt(p);
  }
  return value;
}

function parseV6(text: string): bigint | undefined {
  if (!/^[0-9a-fA-F:.]+$/.test(text) || text.length > 45) return undefined;
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groups = (s: string): bigint[] | undefined => {
    if (s === '') return [];
    const out: bigint[] = [];
    const parts = s.split(':');
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!;
      if (i === parts.length - 1 && p.includes('.')) {
        // Embedded IPv4 tail (::ffff:1.2.3.4) counts as two groups.
        const v4 = parseV4(p);
        if (v4 === undefined) return undefined;
        out.push(v4 >> 16n, v4 & 0xffffn);
      } else if (/^[0-9a-fA-F]{1,4}$/.test(p)) out.push(BigInt(`0x${p}`));
      else return undefined;
    }
    return out;
  };
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  return [...head, ...Array<bigint>(Math.max(missing, 0)).fill(0n), ...tail].reduce((acc, g) => (acc << 16n) | g, 0n);
}

function parseAddr(text: string): Addr | undefined {
  if (text.includes(':')) {
    const value = parseV6(text);
    return value === undefined ? undefined : { family: 6, value };
  }
  const value = parseV4(text);
  return value === undefined ? undefined : { family: 4, value };
}

function formatAddr({ family, value }: Addr): string {
  if (family === 4) return [24n, 16n, 8n, 0n].map((s) => String((value >> s) & 0xffn)).join('.');
  // RFC 5952 §5: IPv4-mapped addresses keep the dotted tail.
  if (value >> 32n === 0xffffn) return `::ffff:${formatAddr({ family: 4, value: value & 0xffffffffn })}`;
  const groups = [112n, 96n, 80n, 64n, 48n, 32n, 16n, 0n].map((s) => Number((value >> s) & 0xffffn));
  // RFC 5952: compress the longest run (≥ 2) of zero groups, the first one on a tie.
  let best = { at: -1, len: 0 };
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > best.len && j - i >= 2) best = { at: i, len: j - i };
    i = j === i ? i + 1 : j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best.at < 0) return hex.join(':');
  return `${hex.slice(0, best.at).join(':')}::${hex.slice(best.at + best.len).join(':')}`;
}

const ANY: Span[] = [
  { family: 4, lo: 0n, hi: 0xffffffffn },
  { family: 6, lo: 0n, hi: (1n << 128n) - 1n },
];

/** One entry → its normalized text and the span it covers, or undefined when malformed. */
function parseEntry(entry: string, wildcard: boolean): { text: string; spans: Span[] } | undefined {
  if (wildcard && entry === '*') return { text: '*', spans: ANY };
  if (wildcard && entry.includes('*')) {
    // Only trailing octets may be wildcards, so the entry stays one contiguous range.
    const m = /^((?:(?:0|[1-9]\d{0,2})\.){0,3})\*((?:\.\*){0,3})$/.exec(entry);
    if (!m || entry.split('.').length !== 4) return undefined;
    const fixed = m[1]!.split('.').filter(Boolean);
    if (fixed.some((p) => Number(p) > 255)) return undefined;
    const free = 4 - fixed.length;
    const lo = fixed.reduce((acc, p) => (acc << 8n) | BigInt(p), 0n) << BigInt(8 * free);
    return { text: [...fixed, ...Array<string>(free).fill('*')].join('.'), spans: [{ family: 4, lo, hi: lo | ((1n << BigInt(8 * free)) - 1n) }] };
  }
  const slash = entry.split('/');
  if (slash.length === 2) {
    const addr = parseAddr(slash[0]!);
    if (!addr || !/^\d{1,3}$/.test(slash[1]!)) return undefined;
    const prefix = Number(slash[1]);
    const bits = BITS[addr.family];
    if (prefix > bits) return undefined;
    const host = (1n << BigInt(bits - prefix)) - 1n;
    const lo = addr.value & ~host;
    return { text: `${formatAddr({ family: addr.family, value: lo })}/${prefix}`, spans: [{ family: addr.family, lo, hi: lo | host }] };
  }
  if (slash.length > 2) return undefined;
  const dash = entry.split('-');
  if (dash.length === 2) {
    const lo = parseAddr(dash[0]!.trim());
    const hi = parseAddr(dash[1]!.trim());
    if (!lo || !hi || lo.family !== hi.family || lo.value > hi.value) return undefined;
    return { text: `${formatAddr(lo)}-${formatAddr(hi)}`, spans: [{ family: lo.family, lo: lo.value, hi: hi.value }] };
  }
  const addr = parseAddr(entry);
  return addr && dash.length === 1 ? { text: formatAddr(addr), spans: [{ family: addr.family, lo: addr.value, hi: addr.value }] } : undefined;
}

export interface IpListOptions {
  /** Allow `*` wildcards (user lists, docs/SPEC.md §5). */
  wildcard?: boolean;
  /** Most entries accepted; longer lists are refused at the line past the limit. */
  max?: number;
}

/**
 * Newline-separated text (or already split lines) → the normalized, de-duplicated entries, or the
 * first bad line. Blank lines are ignored.
 */
export function parseIpList(input: string | readonly string[], opts: IpListOptions = {}): IpListResult {
  const lines = typeof input === 'string' ? input.split(/\r?\n/) : input;
  const max = opts.max ?? 1000;
  const out = new Set<string>();
  for (const raw of lines) {
    const line = raw.trim();
    if (!line) continue;
    const entry = parseEntry(line, opts.wildcard ?? false);
    if (!entry || out.size >= max) return { ok: false, line };
    out.add(entry.text);
  }
  return { ok: true, list: [...out] };
}

// The gateway passes the same snapshot arrays on every request, so compiled spans are cached per array.
const compiled = new WeakMap<readonly string[], Span[]>();

function spansOf(list: readonly string[]): Span[] {
  let spans = compiled.get(list);
  if (!spans) {
    // Stored lists were normalized on write; anything unparseable here is skipped rather than thrown.
    spans = list.flatMap((e) => parseEntry(e.trim(), true)?.spans ?? []);
    compiled.set(list, spans);
  }
  return spans;
}

/** A client address in either family; IPv4-mapped IPv6 (`::ffff:1.2.3.4`) counts as IPv4. */
function clientAddr(ip: string): Addr | undefined {
  const addr = parseAddr(ip.trim());
  if (addr?.family === 6 && addr.value >> 32n === 0xffffn) return { family: 4, value: addr.value & 0xffffffffn };
  return addr;
}

const hit = (addr: Addr, spans: Span[]) => spans.some((s) => s.family === addr.family && s.lo <= addr.value && addr.value <= s.hi);

/**
 * Blacklist first (a hit refuses), then a non-empty whitelist must contain the address. In a
 * whitelist `0.0.0.0` also means "everyone" (docs/ORIGINAL-GATEWAY.md §1.2). An unparseable address only
 * passes when there is no whitelist and it cannot be on the blacklist.
 */
export function ipAllowed(ip: string, whitelist: readonly string[] = [], blacklist: readonly string[] = []): boolean {
  const addr = clientAddr(ip);
  if (addr && hit(addr, spansOf(blacklist))) return false;
  if (!whitelist.length) return true;
  if (whitelist.includes('0.0.0.0')) return true;
  return !!addr && hit(addr, spansOf(whitelist));
}
