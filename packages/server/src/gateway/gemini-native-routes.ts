// The Gemini-native scope, /v1beta (what GOOGLE_GEMINI_BASE_URL and @google/genai's baseUrl point at):
// models.list/get, and POST /models/{model}:{method} for generateContent, streamGenerateContent and
// countTokens. A sibling of the /v1 scope with the same error handler, every error rewritten into
// Google's shape by one onSend hook. The key comes as x-goog-api-key or, on this scope only, `?key=`.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { gatewayErrorHandler, sendGatewayError } from './errors';
import { geminiGenerate } from './gemini-native';
import { countGeminiTokens } from './gemini-native-count';
import { toGoogleErrors, unknownGeminiUrl, unknownUrl } from './gemini-native-errors';
import { getGeminiModel, listGeminiModels } from './gemini-native-models';
import { maintenanceGuard } from './maintenance';
import { GATEWAY_BODY_LIMIT } from './index';

const query = (request: FastifyRequest) => (request.query ?? {}) as Record<string, unknown>;

/** The wildcard after /models/: `{model}` or `{model}:{method}`, the model without a `models/` prefix.
 *  Catalogue names may hold slashes, so the method is what follows the last colon. */
function modelPath(request: FastifyRequest): { model: string; method?: string } {
  const rest = (request.params as { '*': string })['*'];
  const colon = rest.lastIndexOf(':');
  const [model, method] = colon < 0 ? [rest, undefined] : [rest.slice(0, colon), rest.slice(colon + 1)];
  return { model: model.replace(/^models\//, ''), method };
}

export async function geminiNativeApi(app: FastifyInstance, opts: { bodyLimit?: number } = {}) {
  const gw = app.gateway;
  app.setErrorHandler(gatewayErrorHandler);
  app.setNotFoundHandler((request, reply) => sendGatewayError(reply, unknownUrl(request)));
  app.addHook('onSend', toGoogleErrors);
  // `?key=` is presented as the header admit() reads; a key sent as a header wins. The query never
  // reaches a log (ops/logging.ts logs paths) or a call log (its path is built from the model).
  app.addHook('onRequest', async (request) => {
    const key = query(request).key;
    if (typeof key === 'string' && key && request.headers['x-goog-api-key'] === undefined) request.headers['x-goog-api-key'] = key;
  });
  app.addHook('onRequest', maintenanceGuard(gw));
  const json = { bodyLimit: opts.bodyLimit ?? GATEWAY_BODY_LIMIT };
  app.get('/models', (request) => listGeminiModels(gw, request));
  app.get('/models/*', (request) => {
    const { model, method } = modelPath(request);
    return method === undefined ? getGeminiModel(gw, request, model) : unknownGeminiUrl(request);
  });
  app.post('/models/*', json, (request, reply) => {
    const { model, method } = modelPath(request);
    if (method === 'generateContent') return geminiGenerate(gw, request, reply, model, 'json');
    if (method === 'streamGenerateContent') return geminiGenerate(gw, request, reply, model, query(request).alt === 'sse' ? 'sse' : 'array');
    if (method === 'countTokens') return countGeminiTokens(gw, request, reply, model);
    return unknownGeminiUrl(request);
  });
}
