// What each role sees on the workplace (docs/ORIGINAL-API.md §1.4): its base-data cards and its Top 10 rankings.
import type { BaseData, TopType } from '@fastgate/core/entities/dashboard';
import type { Role } from '@fastgate/core/constants';

/** Card order; everyone its apps, today's apps, models, app keys, calls and groups. */
const BASE_FIELDS: readonly (keyof BaseData)[] = ['app', 'today_app', 'model', 'app_key', 'model_key', 'user', 'today_user', 'call', 'group'];
const ONLY: Partial<Record<keyof BaseData, readonly Role[]>> = {
  model_key: ['admin'],
  user: ['admin', 'reseller'],
  today_user: ['admin', 'reseller'],
};

export function baseFieldsFor(role: Role | undefined): (keyof BaseData)[] {
  if (!role) return [];
  return BASE_FIELDS.filter((f) => ONLY[f]?.includes(role) ?? true);
}

/** Only users rank their app keys, and they do not rank users; the first type is the default tab. */
export function topTypesFor(role: Role | undefined): TopType[] {
  return role === 'user' ? ['app', 'app_key', 'model'] : ['user', 'app', 'model'];
}
