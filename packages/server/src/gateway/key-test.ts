// The console's test button (issue 13): one real chat request through one provider key, its agent's
// endpoint and protocol, a short prompt and a few tokens. Not billed or call-logged (no client, no
// account); its outcome goes to the key's breaker as a probe would: a success closes an open breaker,
// a transient failure counts (and a failed forced probe opens it again). Auth errors are shown, not
// acted on: disabling stays with real traffic and the admin.
import { ModelType } from '@fastgate/core/entities/model';
import type { KeyTestInput } from '@fastgate/core/entities/breaker';
import { keyBreaker } from '../breakers/index';
import { invalidField, notFound } from '../http/errors';
import { chatAdapterOf, providers } from '../providers/index';
import type { UpstreamError } from '../providers/types';
import { classify } from './classify';
import type { Gateway } from './gateway';
import { routeFor, type Route } from './pick';
import { withoutKey } from './relay';
import { retryAfterMs } from './retry-after';
import type { SnapModel } from './snapshot';
import { UpstreamFailure } from './upstream';

export interface KeyTestOutcome {
  ok: boolean;
  status: number;
  latencyMs: number;
  message: string;
  route: Route;
}

/** The route a test takes: the key's agent (the one asked for, else its first), one of that agent's models (a chat model first). */
function testRoute(gw: Gateway, input: KeyTestInput): Route {
  const { snapshot } = gw;
  const key = snapshot.keys.get(input.id);
  if (!key) throw notFound();
  const agentId = input.agent_id ?? key.model_agents.find((id) => snapshot.agents.has(id));
  const agent = agentId ? snapshot.agents.get(agentId) : undefined;
  if (input.agent_id && (!agent || !key.model_agents.includes(input.agent_id))) throw invalidField('agent_id', input.agent_id);
  const modelIds = [...(agent ? agent.modelIds : key.modelIds)];
  if (input.model && !modelIds.includes(input.model)) throw invalidField('model', input.model);
  const candidates = (input.model ? [input.model] : modelIds).map((id) => snapshot.models.get(id)).filter((m): m is SnapModel => !!m);
  const model = candidates.find((m) => m.type === ModelType.Text) ?? candidates[0];
  if (!model) throw invalidField('model', 'none');
  // A catch-all record (`*`) has no name of its own to send: its display name stands in.
  return routeFor(snapshot, model, model.model.includes('*') ? model.name : model.model, agent ?? null, key);
}

/** The first words of the answer, read as the route's protocol (the raw body when it cannot be). */
function answerText(route: Route, text: string): string {
  try {
    const { body } = chatAdapterOf(route).parseResponse(JSON.parse(text) as unknown);
    return (body.choices[0]?.message.content ?? '').slice(0, 200);
  } catch {
    return text.slice(0, 200);
  }
}

export async function testKey(gw: Gateway, input: KeyTestInput): Promise<KeyTestOutcome> {
  const route = testRoute(gw, input);
  const { sys } = gw.snapshot;
  const timeoutMs = sys.base.short_timeout * 1000;
  const id = keyBreaker(route.key.id);
  // A success must be able to close an open breaker: the test takes its probe whatever the wait.
  const claim = await gw.breakers.store.claim(id, timeoutMs + 5000, Date.now(), true);
  const request = chatAdapterOf(route).buildRequest(route.target, { model: route.target.model, messages: [{ role: 'user', content: 'ping' }], max_tokens: 8, stream: false });
  const started = performance.now();
  let error: UpstreamError | undefined;
  let message = '';
  let status = 0;
  try {
    const res = await gw.upstream.send(request, { timeoutMs });
    status = res.status;
    const text = withoutKey(route.key, await res.body.text().catch(() => ''));
    if (status >= 400) {
      const wait = retryAfterMs(res.headers);
      error = { ...providers[route.family].mapError(status, text), ...(wait === undefined ? {} : { retryAfterMs: wait }) };
    } else message = answerText(route, text);
  } catch (err) {
    if (!(err instanceof UpstreamFailure)) throw err;
    error = err.error;
  }
  const latencyMs = Math.round(performance.now() - started);
  const probe = claim === 'probe';
  if (!error) {
    await gw.breakers.report(route, { kind: 'ok' }, probe ? [id] : []);
    return { ok: true, status, latencyMs, message, route };
  }
  const verdict = classify(error, sys);
  const transient = verdict.retry && !verdict.disable;
  await gw.breakers.report(route, transient ? { kind: 'fail', coolMs: verdict.coolMs, error: { status: error.status, code: error.code ?? '', message: error.message } } : { kind: 'neutral' }, probe ? [id] : []);
  return { ok: false, status: error.status, latencyMs, message: error.message, route };
}
