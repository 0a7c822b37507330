// Validates answers against the response schemas of OpenAI's published OpenAPI description (the
// subset in openai-schemas.json; extract-openai-schemas.mjs says where it comes from and how to renew
// it), with Ajv's JSON Schema 2020-12 — the dialect of OpenAPI 3.1 — once the few OpenAPI-only
// keywords left in it are rewritten.
import fs from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

type Schema = Record<string, unknown>;
const SPEC = 'https://openai.invalid/openapi.json';

const file = JSON.parse(fs.readFileSync(new URL('./openai-schemas.json', import.meta.url), 'utf8')) as { schemas: Record<string, Schema> };

/** OpenAPI 3.0's `nullable: true`, still on a few schemas, as the JSON Schema type union it means. */
function rewrite(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewrite);
  if (!node || typeof node !== 'object') return node;
  // `discriminator` only names the property the anyOf branches differ by; Ajv would demand oneOf.
  const { nullable, discriminator: _discriminator, ...rest } = node as Schema;
  const out = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, rewrite(v)])) as Schema;
  if (nullable !== true) return out;
  if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
  if (typeof out.type === 'string') return { ...out, type: [out.type, 'null'] };
  if (Array.isArray(out.type)) return { ...out, type: [...out.type, 'null'] };
  return { anyOf: [out, { type: 'null' }] };
}

/**
 * Where the description's schemas contradict its own examples of the API's answers, which show null
 * here: `usage` and `user` of a response being created (response.created / in_progress events), and
 * `finish_reason` of a completion's stream chunks before the last.
 */
const NULL_IN_EXAMPLES = ['Response/allOf/2/properties/usage', 'ModelResponseProperties/properties/user', 'CreateCompletionResponse/properties/choices/items/properties/finish_reason'];

function allowNull(schemas: Record<string, Schema>, pointer: string): void {
  const keys = pointer.split('/');
  const last = keys.pop()!;
  const parent = keys.reduce<any>((node, key) => node?.[key], schemas);
  if (!parent?.[last]) throw new Error(`openai-schemas.json has no ${pointer} any more: review NULL_IN_EXAMPLES`);
  parent[last] = { anyOf: [parent[last], { type: 'null' }] };
}

const schemas = rewrite(file.schemas) as Record<string, Schema>;
for (const pointer of NULL_IN_EXAMPLES) allowNull(schemas, pointer);
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema({ $id: SPEC, components: { schemas } });
const compiled = new Map<string, ValidateFunction>();
const validator = (name: string) => {
  let v = compiled.get(name);
  if (!v) {
    if (!file.schemas[name]) throw new Error(`no schema ${name} in openai-schemas.json`);
    v = ajv.compile({ $ref: `${SPEC}#/components/schemas/${name}` });
    compiled.set(name, v);
  }
  return v;
};

/**
 * For a union with a discriminator (ResponseStreamEvent, output items…), the branch this value says it
 * is: validating against it alone gives errors a person can read.
 */
function branchOf(name: string, value: unknown): string | undefined {
  const schema = file.schemas[name]!;
  const prop = (schema.discriminator as { propertyName?: string } | undefined)?.propertyName;
  const union = (schema.anyOf ?? schema.oneOf) as { $ref?: string }[] | undefined;
  if (!prop || !union || !value || typeof value !== 'object') return undefined;
  const tag = (value as Record<string, unknown>)[prop];
  return union
    .map((b) => b.$ref?.split('/').at(-1))
    .find((ref) => {
      const p = ((ref && file.schemas[ref]?.properties) as Record<string, Schema> | undefined)?.[prop];
      return p !== undefined && (p.const === tag || (Array.isArray(p.enum) && p.enum.includes(tag)));
    });
}

/** What is wrong with `value` as an instance of the spec's schema `name` ([] when it conforms). */
export function violations(name: string, value: unknown): string[] {
  const branch = branchOf(name, value);
  if (file.schemas[name]?.discriminator && !branch) return [`${name}: no branch for ${JSON.stringify((value as Record<string, unknown>)?.type)}`];
  const v = validator(branch ?? name);
  if (v(value) && (!branch || validator(name)(value))) return [];
  const found = [...new Set((v.errors ?? validator(name).errors ?? []).map((e) => `${branch ?? name}${e.instancePath} ${e.message ?? ''} ${JSON.stringify(e.params)}`))];
  // A value that fits no branch of a nested union fails every branch: the first few say enough.
  return found.length > MAX_SHOWN ? [...found.slice(0, MAX_SHOWN), `… ${found.length - MAX_SHOWN} more`] : found;
}

const MAX_SHOWN = 12;
