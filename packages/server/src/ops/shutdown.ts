// Graceful shutdown on SIGTERM/SIGINT. Fastify's close already stops accepting connections, answers
// requests that still arrive on open keep-alive connections (with `Connection: close`), waits for the
// ones in flight and only then runs the app's onClose hooks (the ledger's last write, jobs, database).
// Two things are added here: idle keep-alive connections are closed as soon as they go idle (else
// each would hold the close open until its keep-alive timeout), and after `timeoutMs` whatever is still
// open is cut — a cut stream's call still settles what was delivered before the ledger's last write.
// The last log lines get a bounded time to go out: an output nobody reads any more (a supervisor or a
// `| tee` that died) never holds the exit (ops/log-sink.ts). A second signal exits at once.
import type { FastifyInstance } from 'fastify';
import { flushLogs } from './logging';

/** How long the last log lines may take to go out before the process exits anyway. */
const LOG_FLUSH_MS = 1000;

export function gracefulShutdown(app: FastifyInstance, timeoutMs: number, exit: (code: number) => void = (code) => process.exit(code)) {
  let stopping = false;
  return async (signal: string): Promise<void> => {
    if (stopping) {
      app.log.warn({ signal }, 'second signal: exiting without waiting');
      exit(1);
      return;
    }
    stopping = true;
    app.ops.draining = true;
    app.log.info({ signal, timeout_s: timeoutMs / 1000 }, 'shutting down: no new connections, waiting for requests and streams in flight');
    const server = app.server;
    const reaper = setInterval(() => server.closeIdleConnections(), 100);
    const deadline = setTimeout(() => {
      app.log.warn({ timeout_s: timeoutMs / 1000 }, 'shutdown timeout: cutting the connections still open');
      server.closeAllConnections();
    }, timeoutMs);
    let code = 0;
    try {
      await app.close();
      app.log.info('shut down cleanly');
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      code = 1;
    } finally {
      clearInterval(reaper);
      clearTimeout(deadline);
    }
    await flushLogs(app.log, LOG_FLUSH_MS);
    exit(code);
  };
}
