// How long an upstream asks the gateway to wait, from its answer's headers (issue 13): `retry-after-ms`
// (OpenAI), `retry-after` (seconds or an HTTP date), else the rate-limit reset headers: OpenAI's
// `x-ratelimit-reset-{requests,tokens}` (Go durations: "1s", "6m0s", "20ms") and Anthropic's
// `anthropic-ratelimit-*-reset` (RFC 3339 times). Of the reset headers, the windows whose `remaining`
// says 0 decide (the longest of them); without that, the shortest reset.
type Headers = Record<string, string | string[] | undefined>;

const one = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v)?.trim() || undefined;

const UNIT_MS: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 0.001, 'µs': 0.001, ns: 0.000001 };

/** A Go duration ("1h2m3.5s", "20ms") in milliseconds. */
export function goDurationMs(text: string): number | undefined {
  if (!/^(\d+(\.\d+)?(h|ms|m|s|us|µs|ns))+$/.test(text)) return undefined;
  let ms = 0;
  for (const [, n, unit] of text.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s|us|µs|ns)/g)) ms += Number(n) * UNIT_MS[unit!]!;
  return ms;
}

/** Seconds, a Go duration or a date, as milliseconds from `now`. */
function waitOf(text: string | undefined, now: number): number | undefined {
  if (!text) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  const duration = goDurationMs(text);
  if (duration !== undefined) return duration;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

const RESETS: [remaining: string, reset: string][] = [
  ['x-ratelimit-remaining-requests', 'x-ratelimit-reset-requests'],
  ['x-ratelimit-remaining-tokens', 'x-ratelimit-reset-tokens'],
  ...['requests', 'tokens', 'input-tokens', 'output-tokens'].map((w): [string, string] => [`anthropic-ratelimit-${w}-remaining`, `anthropic-ratelimit-${w}-reset`]),
];

/** Milliseconds to wait, or undefined when the headers say nothing usable. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = one(headers['retry-after-ms']);
  if (ms && /^\d+(\.\d+)?$/.test(ms)) return Number(ms);
  const after = waitOf(one(headers['retry-after']), now);
  if (after !== undefined) return after;
  const spent: number[] = [];
  const all: number[] = [];
  for (const [remaining, reset] of RESETS) {
    const wait = waitOf(one(headers[reset]), now);
    if (wait === undefined) continue;
    all.push(wait);
    if (one(headers[remaining]) === '0') spent.push(wait);
  }
  if (spent.length) return Math.max(...spent);
  return all.length ? Math.min(...all) : undefined;
}
