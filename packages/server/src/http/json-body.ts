// JSON request bodies for every route (console and gateway): Fastify's own parser, a bound on nesting,
// and prototype poisoning refused as Fastify refuses it. JSON.parse copes with any depth, but everything
// after it that recurses (JSON.stringify of logged messages, zod, the provider transforms) overflows the
// stack on a few thousand levels, which turned one small hostile body into a 500.
import { errorCodes, type FastifyInstance } from 'fastify';
import { scan } from 'secure-json-parse';

/** Deeper than any real request (tool schemas nest a few dozen levels at most). */
export const MAX_JSON_DEPTH = 128;

export class JsonTooDeepError extends Error {
  readonly statusCode = 400;
  readonly code = 'FG_JSON_TOO_DEEP';
  constructor() {
    super(`The JSON body is nested more than ${MAX_JSON_DEPTH} levels deep.`);
  }
}

/** Whether a parsed value nests deeper than `max` (iterative: the check itself cannot overflow). */
export function deeperThan(value: unknown, max: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  // Two plain stacks (objects, their depths): no allocation per node on the gateway's hot path.
  const nodes: object[] = [value];
  const depths: number[] = [1];
  while (nodes.length) {
    const node = nodes.pop()!;
    const depth = depths.pop()!;
    if (depth > max) return true;
    // for…in walks array indexes and own keys alike (parsed JSON has nothing inherited to enumerate).
    for (const key in node) {
      const child = (node as Record<string, unknown>)[key];
      if (child !== null && typeof child === 'object') {
        nodes.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

/**
 * Whether `text` holds more than `max` opening brackets. JSON nests only through brackets, so a text with
 * no more than `max` of them cannot parse to anything deeper, and a typical body skips the walk; brackets
 * inside strings count too, which can only send a body to the walk it did not need.
 */
export function bracketsOver(text: string, max: number): boolean {
  let n = 0;
  for (const bracket of ['{', '[']) {
    for (let i = text.indexOf(bracket); i !== -1; i = text.indexOf(bracket, i + 1)) if (++n > max) return true;
  }
  return false;
}

/**
 * Whether `text` may hold a `__proto__` or `constructor` key: either spelt out, or with an escaped letter,
 * which is always `\u00` and two hex digits. Every text secure-json-parse's own patterns flag passes this,
 * in three native searches: its patterns, each letter an alternation, took ~90 µs over an agent's 150 KB
 * body (docs/BENCHMARKS.md, twenty-sixth session). Most bodies fail it; those that pass are walked.
 */
function mayPoison(text: string): boolean {
  return text.includes('__proto__') || text.includes('constructor') || text.includes('\\u00');
}

const POISON = { protoAction: 'error', constructorAction: 'error' } as const;

export function registerJsonBody(app: FastifyInstance): void {
  // Parsing only (and the byte-order mark): the poisoning check is below, where a body that cannot hold
  // a forbidden key skips it.
  const parse = app.getDefaultJsonParser('ignore', 'ignore');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    parse(request, text, (err, value) => {
      if (err) return done(err, undefined);
      if (bracketsOver(text, MAX_JSON_DEPTH) && deeperThan(value, MAX_JSON_DEPTH)) return done(new JsonTooDeepError(), undefined);
      if (value !== null && typeof value === 'object' && mayPoison(text)) {
        try {
          // Iterative: safe at any depth. Throws on `__proto__`, or a `constructor` object with a `prototype`.
          scan(value, POISON);
        } catch {
          // What Fastify's parser answers for these (its 'error' setting).
          return done(new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY(), undefined);
        }
      }
      done(null, value);
    });
  });
}
