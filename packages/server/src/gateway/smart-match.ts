// Smart keyword forwarding (docs/ORIGINAL-GATEWAY.md §1.4): when no keyword matches literally, a decision
// model reads the prompt and picks a category. The decision call is logged (is_smart_match) and not
// charged; any failure or an unusable answer means "no forwarding", never a failed request.
import { Status } from '@fastgate/core/constants';
import { LogStatus } from '@fastgate/core/entities/call-log';
import type { ForwardConfig } from '@fastgate/core/entities/catalogue';
import type { NewCallLog } from '../db/schema';
import { chatAdapterOf, providers } from '../providers/index';
import { callLog, type Plan } from './call-log';
import type { CallSignal } from './call-signal';
import type { Gateway } from './gateway';
import { pick, Tried } from './pick';
import { lastText } from './resolve';
import type { SnapModel } from './snapshot';
import type { ChatRequest } from '../providers/types';

const DECISION_TIMEOUT_MS = 30_000;

function decisionPrompt(keywords: string[]): string {
  const lines = keywords.map((k, i) => `${i}: ${k.split('|').join(' or ')}`);
  return [
    'You classify a user message into one of these categories:',
    ...lines,
    'Answer with the number of the best matching category only, or -1 if none matches. No other text.',
  ].join('\n');
}

/** The category index in a decision model's answer, or -1. */
function parseDecision(text: string, count: number): number {
  const m = /-?\d+/.exec(text);
  const n = m ? Number(m[0]) : -1;
  return Number.isInteger(n) && n >= 0 && n < count ? n : -1;
}

export async function smartTarget(gw: Gateway, plan: Plan, config: ForwardConfig, body: ChatRequest, logs: NewCallLog[], signal: CallSignal): Promise<SnapModel | undefined> {
  const { snapshot } = gw;
  const decision = snapshot.models.get(config.decision_model);
  if (!decision || decision.status !== Status.Normal) return undefined;
  const started = performance.now();
  let route;
  try {
    route = pick(snapshot, decision, null, decision.name, new Tried(), undefined, gw.breakers);
  } catch {
    return undefined;
  }
  const adapter = chatAdapterOf(route);
  const request: ChatRequest = {
    model: route.target.model,
    messages: [
      { role: 'system', content: decisionPrompt(config.keywords) },
      { role: 'user', content: lastText(body.messages).slice(0, 8000) },
    ],
    max_tokens: 8,
    temperature: 0,
  };
  let status: number = LogStatus.Success;
  let errMsg = '';
  let index = -1;
  let usage;
  try {
    const res = await gw.upstream.send(adapter.buildRequest(route.target, request), { timeoutMs: DECISION_TIMEOUT_MS, signal });
    if (res.status >= 400) {
      const error = providers[route.family].mapError(res.status, await res.body.text());
      status = LogStatus.Failed;
      errMsg = error.message;
    } else {
      const parsed = adapter.parseResponse(await res.body.json());
      usage = parsed.usage;
      index = parseDecision(parsed.body.choices[0]?.message.content ?? '', config.keywords.length);
    }
  } catch (err) {
    status = LogStatus.Failed;
    errMsg = `decision model call failed: ${(err as Error).message}`;
  }
  const row = callLog(snapshot, { ...plan, resolution: { ...plan.resolution, target: decision } }, logs.length, { route, status, errMsg, usage, connMs: performance.now() - started });
  row.is_smart_match = 1;
  row.is_retry = 0;
  logs.push(row);
  const target = index >= 0 ? snapshot.models.get(config.target_models[index] ?? '') : undefined;
  return target && target.status === Status.Normal ? target : undefined;
}
