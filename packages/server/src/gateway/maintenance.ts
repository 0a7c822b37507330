// Maintenance mode (docs/SPEC.md §3.15.1, sys config `service_unavailable`): while it is on, every gateway
// call is refused before admission with a 503 and the configured message, so nothing is reserved,
// charged or logged. It throws the gateway's own error: each scope's error handler and onSend hooks put
// it in the caller's protocol (OpenAI, Anthropic, Gemini). Addresses on the whitelist (request.ip, as
// admission reads it) pass, so an operator can check the service before opening it again. The console
// is another scope and stays up.
import { ipAllowed } from '@fastgate/core/ip-list';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError } from './errors';
import type { Gateway } from './gateway';

const DEFAULT_MESSAGE = 'The service is under maintenance. Please try again later.';

export function maintenanceGuard(gw: Gateway) {
  // A callback hook, not an async one: it runs on every gateway call and has nothing to wait for.
  return (request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void): void => {
    const { open, ip_whitelist, message } = gw.snapshot.sys.service_unavailable;
    if (!open || (ip_whitelist.length && ipAllowed(request.ip, ip_whitelist))) return done();
    done(new GatewayError(503, 'service_unavailable', message || DEFAULT_MESSAGE));
  };
}
