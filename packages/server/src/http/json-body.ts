// JSON request bodies for every route (console and gateway): Fastify's own parser, then one walk of what
// it parsed that refuses nesting past a bound and prototype poisoning. JSON.parse copes with any depth, but
// everything after it that recurses (JSON.stringify of logged messages, zod, the provider transforms)
// overflows the stack on a few thousand levels, which turned one small hostile body into a 500.
import { errorCodes, type FastifyInstance } from 'fastify';

/** Deeper than any real request (tool schemas nest a few dozen levels at most). */
export const MAX_JSON_DEPTH = 128;

export class JsonTooDeepError extends Error {
  readonly statusCode = 400;
  readonly code = 'FG_JSON_TOO_DEEP';
  constructor() {
    super(`The JSON body is nested more than ${MAX_JSON_DEPTH} levels deep.`);
  }
}

const isObject = (v: unknown): v is object => v !== null && typeof v === 'object';

/**
 * Prototype poisoning as secure-json-parse defines it (Fastify's parser set to refuse it): an own
 * `__proto__` key, or an own `constructor` key holding an object with an own `prototype` key.
 */
function poisoned(node: object): boolean {
  if (Object.hasOwn(node, '__proto__')) return true;
  if (!Object.hasOwn(node, 'constructor')) return false;
  const constructor = (node as { constructor: unknown }).constructor;
  return isObject(constructor) && Object.hasOwn(constructor, 'prototype');
}

/**
 * What is wrong with a parsed body, if anything: nested deeper than `max`, or poisoned (above). One
 * iterative walk, so the check itself cannot overflow. secure-json-parse ran two patterns over the text
 * first, each letter an alternation of its escapes, before a walk of its own: ~90 µs over an agent's 150 KB
 * body, where this walk takes ~30 (docs/BENCHMARKS.md, twenty-sixth session).
 */
export function bodyFault(value: unknown, max: number): 'too_deep' | 'poisoned' | undefined {
  if (!isObject(value)) return undefined;
  // Two plain stacks (objects, their depths): no allocation per node on the gateway's hot path.
  const nodes: object[] = [value];
  const depths: number[] = [1];
  while (nodes.length) {
    const node = nodes.pop()!;
    const depth = depths.pop()!;
    if (depth > max) return 'too_deep';
    if (poisoned(node)) return 'poisoned';
    // for…in walks array indexes and own keys alike (parsed JSON has nothing inherited to enumerate).
    for (const key in node) {
      const child = (node as Record<string, unknown>)[key];
      if (isObject(child)) {
        nodes.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return undefined;
}

export function registerJsonBody(app: FastifyInstance): void {
  // Parsing only (and the byte-order mark): bodyFault() refuses poisoning, with Fastify's own error for it.
  const parse = app.getDefaultJsonParser('ignore', 'ignore');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    parse(request, body as string, (err, value) => {
      if (err) return done(err, undefined);
      const fault = bodyFault(value, MAX_JSON_DEPTH);
      if (fault === 'too_deep') return done(new JsonTooDeepError(), undefined);
      // What Fastify's parser answers for a poisoned body.
      if (fault === 'poisoned') return done(new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY(), undefined);
      done(null, value);
    });
  });
}
