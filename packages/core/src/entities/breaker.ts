// Upstream health in the console (issue 13): the circuit breaker of each provider key and model agent
// (closed / open / half-open, the last minute's error rate, the last error, a 429's cool-down), and
// the test button that sends one real request through a chosen key. Admins only.
import { z } from 'zod';
import { idField } from '../schemas/common';
import { MODEL_AGENT_PREFIX } from './model-agent';

/** `GET ?ids=a,b,c`: the breakers of these provider keys and model agents (unknown ids are left out). */
export const MODEL_AGENT_BREAKERS = `${MODEL_AGENT_PREFIX}/breakers`;
/** One real request through one key (recorded in the audit log). */
export const MODEL_AGENT_KEY_TEST = `${MODEL_AGENT_PREFIX}/key/test`;

export type BreakerState = 'closed' | 'open' | 'half_open';

/** At most one page of keys (the list's largest page size) and their agents. */
const BREAKER_QUERY_MAX = 500;

export const breakerQuerySchema = z.object({
  // `ids=a,b` or `ids=a&ids=b` (an array, as a repeated query parameter or a JSON client sends it).
  ids: z
    .union([z.string().max(BREAKER_QUERY_MAX * 33), z.array(z.string().max(32)).max(BREAKER_QUERY_MAX)])
    .transform((v) => [...new Set((Array.isArray(v) ? v : v.split(',')).map((x) => x.trim()).filter(Boolean))])
    .pipe(z.array(idField).max(BREAKER_QUERY_MAX)),
});

export const keyTestSchema = z.object({
  /** The provider key. */
  id: idField,
  /** Through this agent (one the key is bound to); default: the key's first agent. */
  agent_id: idField.optional(),
  /** With this model (one the agent or key serves); default: its first chat model. */
  model: idField.optional(),
});
export type KeyTestInput = z.infer<typeof keyTestSchema>;

export interface BreakerInfo {
  id: string;
  kind: 'key' | 'agent';
  state: BreakerState;
  /** Transient failures in the last minute, as a whole percentage of its calls (0 without calls). */
  error_rate: number;
  calls: number;
  failures: number;
  last_error: { status: number; code: string; message: string; at: string } | null;
  /** Open: when one request may probe it. */
  retry_at: string | null;
  /** The upstream asked to wait (429) until then. */
  cooling_until: string | null;
}

export interface KeyTestResult {
  ok: boolean;
  /** The upstream's HTTP status; 0 = no answer (timeout, unreachable). */
  status: number;
  latency_ms: number;
  /** The upstream's error text (keys masked), or the first words of its answer. */
  message: string;
  /** The model the request asked for (the upstream's name). */
  model: string;
  agent_id: string | null;
  /** The key's breaker after the test: a success closes an open one. */
  breaker: BreakerInfo;
}
