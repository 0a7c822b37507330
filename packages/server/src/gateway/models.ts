// GET /v1/models: only what this key may call (its app's and key's allow-lists included).
import type { FastifyRequest } from 'fastify';
import { usableGroups, usableModels } from '../catalogue/access';
import { admit } from './admit';
import type { Gateway } from './gateway';

export function listModels(gw: Gateway, request: FastifyRequest) {
  const { snapshot } = gw;
  const caller = admit(snapshot, request);
  const groups = usableGroups(caller.user, [...snapshot.groups.values()], Date.now(), caller.vip);
  const bound = caller.appKey.is_bind_group ? caller.appKey.group_id : caller.app.is_bind_group ? caller.app.group_id : '';
  const allow = caller.app.models.length ? caller.app.models : caller.appKey.models;
  const usable = usableModels(caller.user, bound ? groups.filter((g) => g.id === bound) : groups, [...snapshot.models.values()]).filter(
    ({ model, group }) => (!bound || group) && (!allow.length || allow.includes(model.id)),
  );
  return {
    object: 'list',
    data: usable.map(({ model }) => ({ id: model.name, object: 'model', created: Math.floor(model.created_at / 1000), owned_by: snapshot.corps.get(model.corp)?.name ?? 'system' })),
  };
}
