// One root hook per request: the id headers (on the gateway x-trace-id and x-request-id, both the trace
// id, since the OpenAI SDKs read x-request-id into `_request_id`; x-request-id on the console), in-flight
// and latency metrics, and one access-log line when the answer ends. It listens for the raw response's
// `close`, so hijacked SSE streams are measured to their last byte, and a client that left before the
// end counts as 499.
import type { FastifyInstance } from 'fastify';
import { pathOf } from './logging';
import { faceOf, type Metrics } from './metrics';

export function observeRequests(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onRequest', (request, reply, done) => {
    const face = faceOf(request.url);
    const started = performance.now();
    if (face === 'gateway') reply.header('x-trace-id', request.id).header('x-request-id', request.id);
    else if (face === 'console') reply.header('x-request-id', request.id);
    metrics.requestStarted(face);
    // on, not once: a response closes once, and once() wrapped the listener anew for every request.
    reply.raw.on('close', () => {
      const res = reply.raw;
      const status = res.writableFinished ? res.statusCode : 499;
      const route = request.routeOptions.url ?? 'unmatched';
      const ms = performance.now() - started;
      metrics.requestEnded(face, request.method, route, status, ms / 1000);
      // Probes, scrapes and static files stay out of the log; the API and the gateway are logged.
      if (face !== 'other') request.log.info({ method: request.method, path: pathOf(request.url), route, status, ms: Math.round(ms) }, 'request');
    });
    done();
  });
}
