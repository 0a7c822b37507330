// /api/v1/model/agent/breakers and /key/test (issue 13, admins only): the circuit breakers of provider
// keys and model agents as the gateway sees them (shared by every instance in Redis mode), and one
// real request through a chosen key. The test is an admin action: the audit log records which key,
// its breaker before, and the outcome.
import { keyTestSchema, breakerQuerySchema, MODEL_AGENT_BREAKERS, MODEL_AGENT_KEY_TEST, type BreakerInfo, type KeyTestResult } from '@fastgate/core/entities/breaker';
import type { FastifyInstance } from 'fastify';
import { auditDraftOf } from '../audit/record';
import { agentBreaker, keyBreaker, type BreakerStatus } from '../breakers/index';
import type { Gateway } from '../gateway/gateway';
import { testKey } from '../gateway/key-test';
import { get, post } from '../http/route';
import { formatTime } from '../http/time';

const ADMIN = ['admin'] as const;

function toWire(s: BreakerStatus, kind: BreakerInfo['kind'], id: string, tz: string, now: number): BreakerInfo {
  return {
    id,
    kind,
    state: s.state,
    error_rate: s.calls ? Math.round((s.failures * 100) / s.calls) : 0,
    calls: s.calls,
    failures: s.failures,
    last_error: s.lastError ? { status: s.lastError.status, code: s.lastError.code, message: s.lastError.message, at: formatTime(s.lastError.at, tz) } : null,
    retry_at: s.state === 'open' ? formatTime(s.retryAt, tz) : null,
    cooling_until: s.coolUntil > now ? formatTime(s.coolUntil, tz) : null,
  };
}

/** The breakers of these ids: keys and agents the gateway knows, in the order asked. */
async function breakersOf(gw: Gateway, ids: readonly string[], tz: string): Promise<BreakerInfo[]> {
  const known = ids.flatMap((id): [string, BreakerInfo['kind'], string][] =>
    gw.snapshot.keys.has(id) ? [[id, 'key', keyBreaker(id)]] : gw.snapshot.agents.has(id) ? [[id, 'agent', agentBreaker(id)]] : [],
  );
  const now = Date.now();
  const statuses = await gw.breakers.store.status(
    known.map(([, , b]) => b),
    gw.breakers.settings(),
    now,
  );
  return known.map(([id, kind], i) => toWire(statuses[i]!, kind, id, tz, now));
}

export async function breakerRoutes(app: FastifyInstance) {
  const tz = app.ctx.config.timeZone;

  get(app, MODEL_AGENT_BREAKERS, { schema: breakerQuerySchema, roles: ADMIN }, async (input) => ({ items: await breakersOf(app.gateway, input.ids, tz) }));

  post(app, MODEL_AGENT_KEY_TEST, { schema: keyTestSchema, roles: ADMIN }, async (input, request): Promise<KeyTestResult> => {
    const [before] = await breakersOf(app.gateway, [input.id], tz);
    const outcome = await testKey(app.gateway, input);
    const [breaker] = await breakersOf(app.gateway, [input.id], tz);
    const result: KeyTestResult = {
      ok: outcome.ok,
      status: outcome.status,
      latency_ms: outcome.latencyMs,
      message: outcome.message,
      model: outcome.route.target.model,
      agent_id: outcome.route.agent?.id ?? null,
      breaker: breaker!,
    };
    auditDraftOf(request)?.record('provider_keys', input.id, { breaker: before }, result);
    return result;
  });
}
