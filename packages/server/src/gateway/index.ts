// The gateway scope: /v1, OpenAI-shaped errors, and the endpoints. Sibling of the console scope;
// neither sees the other's hooks (Fastify encapsulation).
import type { FastifyInstance } from 'fastify';
import { chatCompletions } from './chat';
import { completions } from './completions';
import { embeddings, moderations } from './embeddings';
import { gatewayErrorHandler, GatewayError, sendGatewayError } from './errors';
import type { Gateway } from './gateway';
import { maintenanceGuard } from './maintenance';
import { imageEdits, imageGenerations, speech } from './media';
import { anthropicMessages } from './messages';
import { countMessageTokens } from './messages-count';
import { toAnthropicErrors, unknownMessagesUrl } from './messages-errors';
import { listModels, retrieveModel } from './models';
import { createResponse, readResponse, removeResponse } from './responses';
import { getTask, submitTask } from './tasks';
import { rerank } from './rerank';
import { transcriptions, translations } from './transcriptions';

declare module 'fastify' {
  interface FastifyInstance {
    gateway: Gateway;
  }
}

/** Request body limits: JSON bodies (base64 images included), and audio uploads (OpenAI takes files up
 *  to 25 MB; the form's own bytes come on top). Over the limit → 413 request_too_large. */
export const GATEWAY_BODY_LIMIT = 10 * 1024 * 1024;
const UPLOAD_BODY_LIMIT = 26 * 1024 * 1024;

export interface GatewayApiOptions {
  bodyLimit?: number;
  uploadBodyLimit?: number;
}

export async function gatewayApi(app: FastifyInstance, opts: GatewayApiOptions = {}) {
  const gw = app.gateway;
  const bodyLimit = opts.bodyLimit ?? GATEWAY_BODY_LIMIT;
  const uploadLimit = opts.uploadBodyLimit ?? UPLOAD_BODY_LIMIT;
  app.setErrorHandler(gatewayErrorHandler);
  app.setNotFoundHandler((request, reply) => sendGatewayError(reply, new GatewayError(404, 'unknown_url', `Unknown request URL: ${request.method} ${request.url.split('?')[0]}.`)));
  app.addHook('onRequest', maintenanceGuard(gw));
  // Uploads stay raw bytes: the upload routes (audio to text, image edits) read the fields they need and
  // forward the rest untouched (multipart.ts).
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: uploadLimit }, (_request, body, done) => done(null, body));
  const json = { bodyLimit };
  app.post('/chat/completions', json, (request, reply) => chatCompletions(gw, request, reply));
  app.post('/responses', json, (request, reply) => createResponse(gw, request, reply));
  app.get('/responses/*', (request) => readResponse(gw, request));
  app.delete('/responses/*', (request) => removeResponse(gw, request));
  app.post('/completions', json, (request, reply) => completions(gw, request, reply));
  app.post('/embeddings', json, (request, reply) => embeddings(gw, request, reply));
  app.post('/moderations', json, (request, reply) => moderations(gw, request, reply));
  app.post('/images/generations', json, (request, reply) => imageGenerations(gw, request, reply));
  app.post('/audio/speech', json, (request, reply) => speech(gw, request, reply));
  app.post('/audio/transcriptions', { bodyLimit: uploadLimit }, (request, reply) => transcriptions(gw, request, reply));
  app.post('/audio/translations', { bodyLimit: uploadLimit }, (request, reply) => translations(gw, request, reply));
  app.post('/images/edits', { bodyLimit: uploadLimit }, (request, reply) => imageEdits(gw, request, reply));
  app.post('/rerank', json, (request, reply) => rerank(gw, request, reply));
  // Anthropic's API: its error shape on every /v1/messages* answer, unknown paths and methods included
  // (the scope's not-found handler would answer them in OpenAI's).
  const anthropic = { ...json, onSend: toAnthropicErrors };
  app.post('/messages', anthropic, (request, reply) => anthropicMessages(gw, request, reply));
  app.post('/messages/count_tokens', anthropic, (request, reply) => countMessageTokens(gw, request, reply));
  app.route({ method: ['GET', 'PUT', 'PATCH', 'DELETE'], url: '/messages', ...anthropic, handler: unknownMessagesUrl });
  app.all('/messages/*', anthropic, unknownMessagesUrl);
  // Wildcards, not `:params`: an over-long parameter would get Fastify's own 414 body, not ours (and
  // model names may hold slashes).
  app.get('/models', (request) => listModels(gw, request));
  app.get('/models/*', (request) => retrieveModel(gw, request));
  app.post('/tasks/*', json, (request, reply) => submitTask(gw, request, reply));
  app.get('/tasks/*', (request) => getTask(gw, request));
}
