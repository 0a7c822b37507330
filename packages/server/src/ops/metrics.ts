// Prometheus metrics (GET /metrics). Recording is synchronous counter arithmetic: nothing on a request's
// path waits or reads the database; queue depths that live in the database are read when scraped
// (ops/queue-gauges.ts). Labels stay bounded: route patterns (never raw URLs), provider families,
// status classes and catalogue model names. Nothing is labelled by user, app or key.
import { collectDefaultMetrics, Counter, Gauge, register as processRegistry, Registry } from 'prom-client';
import type { NewCallLog } from '../db/schema';
import { HotCounter, HotHistogram } from './series';

/** Which part of the product a request is for. */
export type Face = 'console' | 'gateway' | 'other';

/** /v1 (OpenAI and Anthropic protocols) and /v1beta (Gemini's) are the gateway; a query may follow either. */
const GATEWAY_PATH = /^\/v1(?:beta)?(?:[/?]|$)/;

export const faceOf = (url: string): Face => (GATEWAY_PATH.test(url) ? 'gateway' : url.startsWith('/api/') ? 'console' : 'other');

/** 2xx, 4xx, …; 0 (no HTTP answer: refused, reset, timed out) is `network`. */
const statusClass = (status: number): string => (status > 0 ? `${Math.floor(status / 100)}xx` : 'network');

// Seconds: console calls take milliseconds, gateway calls (streams included) up to minutes.
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new HotCounter(
    'fastgate_http_requests_total',
    'HTTP requests answered, by face (console, gateway, other), method, route pattern and status (499: the client left first).',
    this.registry,
  );
  private readonly latency = new HotHistogram(
    'fastgate_http_request_duration_seconds',
    'Time from the arrival of a request to the end of its answer (a whole stream for SSE), by face, method, route pattern and status class.',
    LATENCY_BUCKETS,
    this.registry,
  );
  /** Requests being answered, by face: counted here, read when scraped. */
  private readonly flying = new Map<Face, number>();
  private readonly inFlight = new Gauge({
    name: 'fastgate_http_requests_in_flight',
    help: 'Requests being answered now (gateway streams included), by face.',
    labelNames: ['face'] as const,
    registers: [this.registry],
    collect: () => {
      for (const [face, n] of this.flying) this.inFlight.set({ face }, n);
    },
  });
  private readonly upstreamAttempts = new HotCounter(
    'fastgate_upstream_attempts_total',
    'Upstream attempts by provider family and outcome: 2xx, 4xx, 5xx, network (no answer), stream_broken (failed after the first chunk), aborted (the client left).',
    this.registry,
  );
  private readonly upstreamErrors = new HotCounter(
    'fastgate_upstream_errors_total',
    'Upstream attempts that failed (every outcome but 2xx and aborted), by provider family and outcome.',
    this.registry,
  );
  private readonly upstreamLatency = new HotHistogram(
    'fastgate_upstream_attempt_duration_seconds',
    'Duration of one upstream attempt (until its answer was relayed), by provider family.',
    LATENCY_BUCKETS,
    this.registry,
  );
  private readonly tokens = new HotCounter(
    'fastgate_tokens_total',
    'Tokens of written call logs by catalogue model and kind (prompt, completion).',
    this.registry,
  );
  private readonly spend = new HotCounter(
    'fastgate_spend_quota_total',
    'Spend of written call logs in quota units (500000 = $1) by catalogue model.',
    this.registry,
  );
  private readonly calls = new HotCounter(
    'fastgate_call_logs_total',
    'Call-log rows written (one per upstream attempt) by catalogue model and call status (1 success, 2 aborted, 3 retried, -1 failed).',
    this.registry,
  );
  private readonly quarantined = new Counter({
    name: 'fastgate_ledger_quarantined_total',
    help: 'Call-log rows the database refused and the ledger set aside (their charges were applied), by outcome: sanitized (stored without the refused values), dropped (not stored; the error log names it).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  constructor() {
    // CPU, memory, event loop, GC: one set per process, whatever number of apps it builds (tests build many).
    // Asked of prom-client's registry, not a flag here: a test runner may evaluate this module again in a
    // process whose prom-client already holds them.
    if (!processRegistry.getSingleMetric('process_cpu_user_seconds_total')) collectDefaultMetrics({ register: processRegistry });
  }

  requestStarted(face: Face): void {
    this.flying.set(face, (this.flying.get(face) ?? 0) + 1);
  }

  requestEnded(face: Face, method: string, route: string, status: number, seconds: number): void {
    this.flying.set(face, (this.flying.get(face) ?? 0) - 1);
    const key = `${face} ${method} ${route} ${status}`;
    (this.requests.at(key) ?? this.requests.add(key, { face, method, route, status: String(status) })).inc();
    (this.latency.at(key) ?? this.latency.add(key, { face, method, route, status_class: statusClass(status) })).observe(seconds);
  }

  /** One upstream attempt: its HTTP status (0 = no answer) or how it ended otherwise. */
  upstreamAttempt(family: string, outcome: number | 'aborted' | 'stream_broken', seconds: number): void {
    const cls = typeof outcome === 'number' ? statusClass(outcome) : outcome;
    const key = `${family} ${cls}`;
    (this.upstreamAttempts.at(key) ?? this.upstreamAttempts.add(key, { family, status_class: cls })).inc();
    if (cls !== '2xx' && cls !== 'aborted') (this.upstreamErrors.at(key) ?? this.upstreamErrors.add(key, { family, status_class: cls })).inc();
    (this.upstreamLatency.at(family) ?? this.upstreamLatency.add(family, { family })).observe(seconds);
  }

  /** Call logs the ledger has just committed: the tokens and spend they record. */
  callLogsWritten(logs: readonly NewCallLog[]): void {
    for (const log of logs) {
      // The catalogue name: a refused call for a model outside the catalogue has none (call-log.ts), so a
      // caller's text never becomes a label.
      const model = log.name || 'unknown';
      const status = String(log.status ?? 0);
      const calls = `${model} ${status}`;
      (this.calls.at(calls) ?? this.calls.add(calls, { model, status })).inc();
      if (log.prompt_tokens) this.tokenSeries(model, 'prompt').inc(Number(log.prompt_tokens));
      if (log.completion_tokens) this.tokenSeries(model, 'completion').inc(Number(log.completion_tokens));
      if (log.total_price) (this.spend.at(model) ?? this.spend.add(model, { model })).inc(Number(log.total_price));
    }
  }

  private tokenSeries(model: string, kind: 'prompt' | 'completion') {
    const key = `${model} ${kind}`;
    return this.tokens.at(key) ?? this.tokens.add(key, { model, kind });
  }

  /** A call-log row the database refused (billing/ledger-quarantine.ts). */
  ledgerQuarantined(outcome: 'sanitized' | 'dropped'): void {
    this.quarantined.inc({ outcome });
  }

  /** A gauge read when scraped (queue depths); `collect` sets its values. */
  gauge<L extends string>(name: string, help: string, labelNames: readonly L[], collect: (g: Gauge<L>) => Promise<void> | void): void {
    new Gauge<L>({
      name,
      help,
      labelNames,
      registers: [this.registry],
      collect() {
        return collect(this);
      },
    });
  }

  contentType = this.registry.contentType;

  /** This app's metrics, then the process's. */
  async text(): Promise<string> {
    return (await this.registry.metrics()) + (await processRegistry.metrics());
  }
}
