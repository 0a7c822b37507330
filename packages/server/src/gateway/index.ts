// The gateway scope: /v1, OpenAI-shaped errors, and the endpoints. Sibling of the console scope;
// neither sees the other's hooks (STYLE §4).
import type { FastifyInstance } from 'fastify';
import { chatCompletions } from './chat';
import { gatewayErrorHandler, GatewayError, sendGatewayError } from './errors';
import type { Gateway } from './gateway';
import { listModels } from './models';

declare module 'fastify' {
  interface FastifyInstance {
    gateway: Gateway;
  }
}

export async function gatewayApi(app: FastifyInstance) {
  const gw = app.gateway;
  app.setErrorHandler(gatewayErrorHandler);
  app.setNotFoundHandler((request, reply) => sendGatewayError(reply, new GatewayError(404, 'unknown_url', `Unknown request URL: ${request.method} ${request.url.split('?')[0]}.`)));
  app.post('/chat/completions', (request, reply) => chatCompletions(gw, request, reply));
  app.get('/models', (request) => listModels(gw, request));
}
