// docs/SPEC.md §5/§6 permission directive: children render only for the listed roles; a missing list throws.
import type { ReactNode } from 'react';
import { hasPermission } from '@fastgate/core/access';
import type { RoleOrAny } from '@fastgate/core/constants';
import { useUserStore } from '../stores/user';

export function usePermission(roles: readonly RoleOrAny[]): boolean {
  const role = useUserStore((s) => s.role);
  return hasPermission(role, roles);
}

export function Permission({ roles, children, fallback = null }: { roles: readonly RoleOrAny[]; children: ReactNode; fallback?: ReactNode }) {
  return usePermission(roles) ? children : fallback;
}
