// Operations on the root app: the request observer (ids, metrics, access log), GET /ready, GET /metrics,
// and the OpenAPI document at GET /api/docs (+ /api/docs/ui). GET /health stays in app.ts.
import { createHash, timingSafeEqual } from 'node:crypto';
import { ipAllowed } from '@fastgate/core/ip-list';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Gateway } from '../gateway/gateway';
import { DOCS_PAGE, DOCS_PAGE_CSP } from './docs-page';
import type { Metrics } from './metrics';
import { observeRequests } from './observe';
import { buildOpenApi } from './openapi';
import { registerQueueGauges } from './queue-gauges';
import { databaseProbe, readiness, redisProbe, type Probe } from './ready';

interface OpsState {
  /** Set at SIGTERM/SIGINT (ops/shutdown.ts): GET /ready answers 503 so balancers stop sending. */
  draining: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    ops: OpsState;
  }
}

/** Loopback, private and link-local ranges: who may scrape without a token. */
const PRIVATE_RANGES = ['127.0.0.0/8', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16', '::1/128', 'fc00::/7', 'fe80::/10'];

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * The peer address decides, never X-Forwarded-For (anyone can send one). A request that came through a
 * proxy (it carries forwarding headers) has the proxy as its peer, so it needs the token: the nginx in
 * front of the instances then cannot open /metrics to the internet by accident.
 */
export function metricsAllowed(request: FastifyRequest, token: string | undefined): boolean {
  const auth = request.headers.authorization;
  if (token && auth && timingSafeEqual(digest(auth.trim()), digest(`Bearer ${token}`))) return true;
  const h = request.headers;
  if (h['x-forwarded-for'] !== undefined || h.forwarded !== undefined || h['x-real-ip'] !== undefined) return false;
  return ipAllowed(request.socket.remoteAddress ?? '', PRIVATE_RANGES);
}

export interface OperationsOptions {
  metrics: Metrics;
  gateway: Gateway;
}

/** Call on the root app before any route is added (the observer's hook must cover them all). */
export function registerOperations(app: FastifyInstance, opts: OperationsOptions): void {
  const { config, db, redis } = app.ctx;
  const { metrics, gateway } = opts;
  const state: OpsState = { draining: false };
  app.decorate('ops', state);
  observeRequests(app, metrics);
  registerQueueGauges(metrics, app.ctx, () => gateway.ledger.pending);

  const probes: Probe[] = [databaseProbe(db), ...(redis ? [redisProbe(redis.client)] : [])];

  app.get('/ready', async (request, reply) => {
    const r = await readiness(probes, state.draining, request.log);
    return reply.status(r.ready ? 200 : 503).send(r);
  });

  app.get('/metrics', async (request, reply) => {
    if (!metricsAllowed(request, config.metricsToken)) {
      return reply.status(403).send({ error: 'forbidden', message: 'GET /metrics is open to loopback and private addresses (not through a proxy), or with Authorization: Bearer <METRICS_TOKEN>.' });
    }
    return reply.header('content-type', metrics.contentType).send(await metrics.text());
  });

  let doc: string | undefined;
  app.get('/api/docs', (_request, reply) => {
    // Built on first request: every route is registered by then.
    doc ??= JSON.stringify(buildOpenApi(app.consoleRoutes, 'v1'));
    return reply.header('content-type', 'application/json; charset=utf-8').send(doc);
  });
  app.get('/api/docs/ui', (_request, reply) => reply.header('content-type', 'text/html; charset=utf-8').header('content-security-policy', DOCS_PAGE_CSP).send(DOCS_PAGE));
}
