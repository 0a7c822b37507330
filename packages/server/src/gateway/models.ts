// GET /v1/models and GET /v1/models/{id}: only what this key may call (its app's and key's allow-lists
// included). One answer for both, so a model the list hides is a 404 here, never a way to probe.
import type { FastifyRequest } from 'fastify';
import { usableModels } from '../catalogue/access';
import { admit } from './admit';
import { GatewayError } from './errors';
import { usableFor } from './resolve';
import type { Gateway } from './gateway';
import type { SnapModel } from './snapshot';

/** OpenAI's Model object, with the model's token limits when the catalogue declares them. */
interface ModelObject {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
  context_window?: number;
  max_output_tokens?: number;
}

/** The most tokens one answer of `m` may hold (0 = unknown): its declared output limit, lowered by an enabled preset's max_tokens. */
export function outputLimitOf(m: Pick<SnapModel, 'max_output_tokens' | 'preset_config'>): number {
  const limits = [m.max_output_tokens, m.preset_config?.max_tokens ?? 0].filter((n) => n > 0);
  return limits.length ? Math.min(...limits) : 0;
}

/** The models the presented key may call (admission first); the Gemini-native list shares it. */
export function callerModels(gw: Gateway, request: FastifyRequest): SnapModel[] {
  const { snapshot } = gw;
  const caller = admit(snapshot, request);
  const { groups } = usableFor(snapshot, caller, Date.now());
  const bound = caller.appKey.is_bind_group ? caller.appKey.group_id : caller.app.is_bind_group ? caller.app.group_id : '';
  const allow = caller.app.models.length ? caller.app.models : caller.appKey.models;
  const usable = usableModels(caller.user, bound ? groups.filter((g) => g.id === bound) : groups, [...snapshot.models.values()]).filter(
    ({ model, group }) => (!bound || group) && (!allow.length || allow.includes(model.id)),
  );
  return usable.map(({ model }) => model);
}

function modelsOf(gw: Gateway, request: FastifyRequest): ModelObject[] {
  const corps = gw.snapshot.corps;
  return callerModels(gw, request).map((model) => {
    const out: ModelObject = { id: model.name, object: 'model', created: Math.floor(model.created_at / 1000), owned_by: corps.get(model.corp)?.name ?? 'system' };
    if (model.context_window) out.context_window = model.context_window;
    const output = outputLimitOf(model);
    if (output) out.max_output_tokens = output;
    return out;
  });
}

export function listModels(gw: Gateway, request: FastifyRequest) {
  return { object: 'list', data: modelsOf(gw, request) };
}

/** The route is a wildcard: catalogue names may hold slashes (`org/model`), which the SDKs send encoded
 *  and the router decodes. */
export function retrieveModel(gw: Gateway, request: FastifyRequest): ModelObject {
  const id = (request.params as { '*': string })['*'];
  const found = modelsOf(gw, request).find((m) => m.id === id);
  // OpenAI's own answer for an unknown or forbidden model: 404, invalid_request_error, model_not_found.
  if (!found) throw new GatewayError(404, 'model_not_found', `The model \`${id.slice(0, 200)}\` does not exist or you do not have access to it.`, 'invalid_request_error');
  return found;
}
