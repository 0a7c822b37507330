// Structured JSON logs (pino through Fastify). Every line of a request carries its id: `trace_id` on the
// gateway (the same id the client gets in x-trace-id and the call logs are keyed by), `req_id` on
// everything else (x-request-id). Secrets stay out: requests are logged as method and path (a query
// string may hold a session token), and key, password and token fields are censored wherever a log
// call passes them. In production the lines go to stdout through ops/log-sink.ts, so that a closed or
// stuck output (a supervisor or `| tee` that died) can never hold the drain or the exit.
import type { FastifyBaseLogger, FastifyRequest, FastifyServerOptions } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { newTraceId } from '../http/ids';
import { logSink, type LogSink } from './log-sink';
import { faceOf } from './metrics';

/** Fields censored in any logged object (headers included, should one ever be logged whole). */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'req.headers["api-key"]',
  'req.headers["x-goog-api-key"]',
  'req.headers["x-xsrf-token"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'headers["x-api-key"]',
  'headers["api-key"]',
  'authorization',
  'password',
  '*.password',
  'token',
  '*.token',
  'secret',
  '*.secret',
  'api_key',
  '*.api_key',
  'apiKey',
  '*.apiKey',
];

/** The path of a URL: its query string may carry a session token (`?token=`) or a key. */
export const pathOf = (url: string): string => {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
};

/** The field naming a request's id on its log lines (the gateway's become `trace_id`); LogController option. */
export const REQUEST_ID_LABEL = 'req_id';

let stdout: LogSink | undefined;

/** The process's log sink on stdout, made once; what it still holds at exit is written then, for a bounded time. */
function stdoutLog(): LogSink {
  if (!stdout) {
    // A pipe or socket (not a terminal, not a file) is put back in non-blocking mode before each write,
    // through the libuv handle Node opened for it (ops/log-sink.ts says why).
    const handle = process.stdout.isTTY ? undefined : (process.stdout as unknown as { _handle?: { setBlocking?: (blocking: boolean) => number } })._handle;
    const sink = logSink(process.stdout.fd ?? 1, handle?.setBlocking ? () => void handle.setBlocking!(false) : undefined);
    process.once('exit', () => sink.flushSync());
    stdout = sink;
  }
  return stdout;
}

/** Resolves once the logger has written its lines, or after `waitMs`: an output nobody reads must not hold an exit. */
export function flushLogs(log: FastifyBaseLogger, waitMs: number): Promise<void> {
  const flush = (log as { flush?: (cb: () => void) => void }).flush?.bind(log);
  if (!flush) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, waitMs);
    flush(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Fastify server options for logging: `given` (tests pass a stream) is laid over the defaults; without it, stdout (stdoutLog). */
export function loggingOptions(level: string, given?: FastifyServerOptions['logger']): Pick<FastifyServerOptions, 'logger' | 'genReqId' | 'childLoggerFactory'> {
  const base = {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: {
      // Fastify logs `req` on its own lines (LOG_LEVEL=debug): method, path and the client address only.
      req: (req: FastifyRequest) => ({ method: req.method, path: pathOf(req.url), remote: req.ip }),
    },
  };
  return {
    logger: given === false ? false : typeof given === 'object' && given ? { ...base, ...given } : { ...base, stream: stdoutLog() },
    genReqId: () => newTraceId(),
    childLoggerFactory(logger, bindings, opts, raw) {
      const id = (bindings as Record<string, unknown>)[REQUEST_ID_LABEL];
      const own = faceOf((raw as IncomingMessage).url ?? '') === 'gateway' ? { trace_id: id } : bindings;
      const parent = logger as LevelledLogger;
      return opts.level === undefined && typeof parent.isLevelEnabled === 'function' ? new RequestLogger(parent, own, opts) : logger.child(own, opts);
    },
  };
}

type LevelledLogger = FastifyBaseLogger & { isLevelEnabled(level: string): boolean };
type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildLoggerOptions = Parameters<FastifyBaseLogger['child']>[1];
type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * A request's logger, made on its first line. pino's child() runs its bindings through the redaction
 * as it is made (~2 % of a gateway call's allocations in issue 16's profiles), and most requests log
 * nothing at the default level. Methods on the prototype: no closures per request.
 */
class RequestLogger implements FastifyBaseLogger {
  #child: FastifyBaseLogger | undefined;
  constructor(
    private readonly parent: LevelledLogger,
    private readonly bindings: Bindings,
    private readonly opts: ChildLoggerOptions,
  ) {}
  get level(): string {
    return this.#child?.level ?? this.parent.level;
  }
  set level(level: string) {
    this.made().level = level;
  }
  private made(): FastifyBaseLogger {
    return (this.#child ??= this.parent.child(this.bindings, this.opts));
  }
  private write(level: Level, args: unknown[]): void {
    if (this.#child || this.parent.isLevelEnabled(level)) (this.made()[level] as (...a: unknown[]) => void)(...args);
  }
  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  silent(): void {}
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.made().child(bindings, options);
  }
}
