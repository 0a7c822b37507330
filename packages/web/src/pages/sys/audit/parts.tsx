// Cells the audit list and its detail share: the kind tag and the actor.
import { Space, Tag, Typography } from '@arco-design/web-react';
import type { AuditKindValue, AuditLog } from '@fastgate/core/entities/audit-log';
import type { PageDict } from '../../../locale';
import type locale from './locale';

type Key = typeof locale extends PageDict<infer K> ? K : never;
export type T = (key: Key, vars?: Record<string, string | number>) => string;

const KIND_COLORS: Record<AuditKindValue, string> = {
  write: 'arcoblue',
  reveal: 'orange',
  export: 'purple',
  sign_in: 'green',
  sign_out: 'gray',
  sign_in_failed: 'red',
};

export function KindTag({ kind, t }: { kind: AuditKindValue; t: T }) {
  return (
    <Tag size="small" color={KIND_COLORS[kind] ?? 'gray'}>
      {t(`audit.kind.${kind}` as Key)}
    </Tag>
  );
}

export function Actor({ row, t }: { row: AuditLog; t: T }) {
  const role = row.role === 'admin' || row.role === 'reseller' ? t(`audit.role.${row.role}`) : row.role;
  return (
    <Space size={4}>
      <Typography.Text>{row.account || '-'}</Typography.Text>
      <Typography.Text type="secondary">
        #{row.user_id} · {role}
      </Typography.Text>
    </Space>
  );
}
