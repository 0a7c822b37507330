import { describe, expect, it } from 'vitest';
import { baseFieldsFor, topTypesFor } from './roles';

describe('workplace per role', () => {
  it('shows provider keys to admins only and users to admins and resellers', () => {
    expect(baseFieldsFor('admin')).toEqual(['app', 'today_app', 'model', 'app_key', 'model_key', 'user', 'today_user', 'call', 'group']);
    expect(baseFieldsFor('reseller')).toEqual(['app', 'today_app', 'model', 'app_key', 'user', 'today_user', 'call', 'group']);
    expect(baseFieldsFor('user')).toEqual(['app', 'today_app', 'model', 'app_key', 'call', 'group']);
    expect(baseFieldsFor(undefined)).toEqual([]);
  });

  it('ranks app keys for users only; users start on apps, the others on users', () => {
    expect(topTypesFor('user')).toEqual(['app', 'app_key', 'model']);
    expect(topTypesFor('reseller')).toEqual(['user', 'app', 'model']);
    expect(topTypesFor('admin')).toEqual(['user', 'app', 'model']);
  });
});
