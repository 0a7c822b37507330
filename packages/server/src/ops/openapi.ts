// The OpenAPI 3.1 document (GET /api/docs): the console API generated from the routes as registered
// (app.consoleRoutes: method, URL, roles, zod input schema), the gateway from ops/openapi-gateway.ts,
// and the operations endpoints. Built once, on first request.
import type { RouteInfo } from '../http/route-registry';
import { z } from 'zod';
import { gatewayPaths, gatewaySchemas } from './openapi-gateway';

type Schema = Record<string, unknown>;
type Operation = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description: string };
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, Record<string, unknown>>;
  tags: { name: string; description?: string }[];
  [k: string]: unknown;
}

/** Input schema of a route as JSON Schema 2020-12 (the dialect OpenAPI 3.1 uses); what JSON cannot say (a transform) is left open. */
function inputJsonSchema(schema: z.ZodType): Schema {
  const out = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Schema;
  delete out.$schema;
  return out;
}

/** `/a/:id` → `/a/{id}`, and the names of its path parameters. */
function templated(url: string): { path: string; params: string[] } {
  const params: string[] = [];
  const path = url.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    params.push(name);
    return `{${name}}`;
  });
  return { path, params };
}

/** The group of an operation: its first path segments under /api/v1 (`model/agent`, `admin/user`, `corp`). */
function tagOf(path: string): string {
  const segs = path.replace(/^\/api\/(v1\/)?/, '').split('/').filter((s) => s && !s.startsWith('{'));
  return segs.length > 2 ? `${segs[0]}/${segs[1]}` : (segs[0] ?? 'console');
}

function operationId(method: string, path: string): string {
  const words = path.replace(/^\/api\//, '').split(/[^A-Za-z0-9]+/).filter(Boolean);
  return method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

const envelopeOf = (data: Schema): Schema => ({
  type: 'object',
  properties: { code: { type: 'integer', description: '0 = success; business errors are non-zero (HTTP 200).' }, message: { type: 'string' }, data },
  required: ['code', 'message', 'data'],
});

function consoleOperation(route: RouteInfo, path: string, params: string[]): Operation {
  const roles = route.public ? [] : [...(route.roles ?? [])];
  const who = route.public ? 'Public: no session needed.' : roles.includes('*') ? 'Any signed-in role.' : `Roles: ${roles.join(', ')}.`;
  const input = route.schema ? inputJsonSchema(route.schema) : undefined;
  const parameters: Schema[] = params.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
  let requestBody: Schema | undefined;
  if (route.method === 'GET') {
    // Query parameters: one per property of the input object.
    const props = (input?.properties ?? {}) as Record<string, Schema>;
    const required = new Set((input?.required as string[] | undefined) ?? []);
    for (const [name, schema] of Object.entries(props)) parameters.push({ name, in: 'query', required: required.has(name), schema });
  } else if (input) {
    requestBody = { required: true, content: { 'application/json': { schema: input } } };
  }
  const page = path.endsWith('/page');
  return {
    operationId: operationId(route.method, path),
    tags: [tagOf(path)],
    summary: `${route.method} ${path}`,
    description: who + (route.public || route.method === 'GET' ? '' : ' Signed-in POSTs also send the XSRF-TOKEN cookie echoed in X-XSRF-TOKEN.'),
    'x-roles': roles,
    ...(route.public ? { 'x-public': true, security: [] } : { security: [{ session: [] }] }),
    ...(parameters.length ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: {
      '200': { description: 'The envelope; `data` holds the answer.', content: { 'application/json': { schema: { $ref: `#/components/schemas/${page ? 'PageEnvelope' : 'Envelope'}` } } } },
      ...(route.public ? {} : { '401': { description: 'No valid session (code 401).', content: { 'application/json': { schema: { $ref: '#/components/schemas/Envelope' } } } } }),
    },
  };
}

const opsPaths: Record<string, Record<string, Operation>> = {
  '/health': { get: { operationId: 'health', tags: ['operations'], summary: 'The process is up', security: [], responses: { '200': { description: 'Up', content: { 'application/json': { schema: { type: 'object', properties: { status: { const: 'ok' } } } } } } } } },
  '/ready': {
    get: {
      operationId: 'ready',
      tags: ['operations'],
      summary: 'The database (and Redis, when configured) answer and the instance is not draining',
      security: [],
      responses: {
        '200': { description: 'Ready', content: { 'application/json': { schema: { $ref: '#/components/schemas/Readiness' } } } },
        '503': { description: 'Not ready: `checks` names what is down', content: { 'application/json': { schema: { $ref: '#/components/schemas/Readiness' } } } },
      },
    },
  },
  '/metrics': {
    get: {
      operationId: 'metrics',
      tags: ['operations'],
      summary: 'Prometheus metrics (text format)',
      description: 'From loopback and private addresses without a proxy in between, or from anywhere with `Authorization: Bearer $METRICS_TOKEN`.',
      security: [{}, { metricsToken: [] }],
      responses: { '200': { description: 'Metrics', content: { 'text/plain': { schema: { type: 'string' } } } }, '403': { description: 'Not allowed from this address' } },
    },
  },
};

export function buildOpenApi(routes: readonly RouteInfo[], version: string): OpenApiDocument {
  const paths: Record<string, Record<string, Operation>> = { ...opsPaths };
  for (const route of routes) {
    const { path, params } = templated(route.url);
    (paths[path] ??= {})[route.method.toLowerCase()] = consoleOperation(route, path, params);
  }
  Object.assign(paths, gatewayPaths);
  const tags = [...new Set(Object.values(paths).flatMap((ops) => Object.values(ops).flatMap((o) => (o.tags as string[]) ?? [])))].sort().map((name) => ({ name }));
  return {
    openapi: '3.1.1',
    info: {
      title: 'FastGate',
      version,
      description:
        'The console API (/api/v1: envelope {code, message, data}, sessions from POST /api/v1/auth/login, roles per operation in x-roles) and the OpenAI/Anthropic-compatible gateway (/v1, app keys, OpenAI-shaped errors).',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    tags,
    paths,
    components: {
      securitySchemes: {
        session: { type: 'http', scheme: 'bearer', description: 'The token answered by POST /api/v1/auth/login.' },
        appKey: { type: 'http', scheme: 'bearer', description: 'An app key (Authorization: Bearer sk-…).' },
        appKeyHeader: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'An app key in x-api-key (Anthropic SDK) — api-key and x-goog-api-key work too.' },
        metricsToken: { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN.' },
      },
      schemas: {
        Envelope: envelopeOf({}),
        PageEnvelope: envelopeOf({
          type: 'object',
          properties: {
            items: { type: 'array', items: {} },
            paging: { type: 'object', properties: { current: { type: 'integer' }, pageSize: { type: 'integer' }, total: { type: 'integer' } }, required: ['current', 'pageSize', 'total'] },
          },
          required: ['items', 'paging'],
        }),
        Readiness: {
          type: 'object',
          properties: { ready: { type: 'boolean' }, checks: { type: 'object', additionalProperties: { enum: ['ok', 'down'] } }, draining: { type: 'boolean' } },
          required: ['ready', 'checks'],
        },
        ...gatewaySchemas,
      },
    },
  };
}
