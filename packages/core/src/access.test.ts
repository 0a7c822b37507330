import { describe, expect, it } from 'vitest';
import { canOpen, firstOpenRoute, hasPermission, PERMISSION_ROLES_ERROR } from './access';
import { appRoutes, findRoute, leafRoutes } from './routes';

describe('route table', () => {
  it('keeps the menu order of docs/SPEC.md §2.2', () => {
    const orders = appRoutes.filter((r) => r.menuOrder !== undefined).map((r) => [r.name, r.menuOrder]);
    expect(orders).toEqual([
      ['dashboard', 1], ['myModel', 2], ['model', 3], ['myGroup', 3], ['key', 4], ['agent', 5], ['corp', 6],
      ['group', 7], ['user', 8], ['app', 9], ['appKey', 10], ['finance', 11], ['task', 12], ['log', 13],
      ['sys', 20], ['vip', 20], ['license', 77],
    ]);
  });
  it('has unique names and paths', () => {
    const leaves = leafRoutes();
    expect(new Set(leaves.map((r) => r.name)).size).toBe(leaves.length);
    expect(new Set(leaves.map((r) => r.path)).size).toBe(leaves.length);
  });
});

describe('canOpen', () => {
  it('applies the four cases of guard rule 3', () => {
    expect(canOpen(undefined, { requiresAuth: false })).toBe(true);
    expect(canOpen('user', { requiresAuth: true })).toBe(true);
    expect(canOpen('user', findRoute('app.list')!)).toBe(true);
    expect(canOpen('user', findRoute('model.list')!)).toBe(false);
    expect(canOpen('admin', findRoute('model.list')!)).toBe(true);
    expect(canOpen('reseller', findRoute('group.list')!)).toBe(true);
    expect(canOpen('admin', findRoute('my.model')!)).toBe(false);
  });
  it('finds the first screen a role may open', () => {
    expect(firstOpenRoute('admin')?.name).toBe('dashboard.workplace');
    expect(firstOpenRoute('user', (n) => n !== 'dashboard.workplace')?.name).toBe('my.model');
  });
  it('requires a role list for the permission check', () => {
    expect(() => hasPermission('admin', 'admin')).toThrow(PERMISSION_ROLES_ERROR);
    expect(() => hasPermission('admin', [])).toThrow(PERMISSION_ROLES_ERROR);
    expect(hasPermission('user', ['admin'])).toBe(false);
    expect(hasPermission('user', ['*'])).toBe(true);
  });
});
