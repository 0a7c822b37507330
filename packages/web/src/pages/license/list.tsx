// License list (docs/SPEC.md §2.2, admin): issued licenses with their limits; each row copies its secret key.
import { useMemo } from 'react';
import { Space, Tag, Typography } from '@arco-design/web-react';
import { LICENSE_PREFIX, type License } from '@fastgate/core/entities/license';
import { CopyButton } from '../../components/CopyButton';
import { ResourceTable, type ResourceColumn } from '../../components/ResourceTable';
import { timeColumn } from '../../components/time-column';
import type { FilterField } from '../../components/SearchForm';
import { useResourcePage } from '../../hooks/resource';
import { useScreenTitle } from '../../hooks/screen-title';
import { usePageLocale, type PageDict } from '../../locale';
import locale from './locale';

type Key = typeof locale extends PageDict<infer K> ? K : never;
type T = (key: Key) => string;

/** 0 = unlimited. */
const limit = (n: number) => (n > 0 ? n : <Typography.Text type="secondary">∞</Typography.Text>);

function columns(t: T): ResourceColumn<License>[] {
  return [
    {
      title: t('license.name'),
      dataIndex: 'name',
      width: 180,
      render: (name: string, row) => (
        <Space size={6}>
          <Typography.Text bold>{name}</Typography.Text>
          <CopyButton fetch={row.secret_key} data-testid={`license-copy-${row.id}`} />
        </Space>
      ),
    },
    { title: t('license.type'), dataIndex: 'type', width: 110, render: (v: number) => <Tag color={v === 1 ? 'orange' : 'arcoblue'}>{t(v === 1 ? 'license.type.1' : 'license.type.2')}</Tag> },
    { title: t('license.userCount'), dataIndex: 'user_count', width: 80, render: (v: number) => limit(v) },
    { title: t('license.appCount'), dataIndex: 'app_count', width: 80, render: (v: number) => limit(v) },
    { title: t('license.node'), dataIndex: 'node', width: 80, render: (v: number) => limit(v) },
    timeColumn(t('license.expiresAt'), 'expires_at', { render: (v: string) => (v ? <span style={{ wordBreak: 'keep-all' }}>{v}</span> : t('license.never')) }),
    { title: t('license.email'), dataIndex: 'email', width: 180, defaultHidden: true, render: (v: string) => v || '-' },
    { title: t('license.phone'), dataIndex: 'phone', width: 130, defaultHidden: true, render: (v: string) => v || '-' },
    { title: t('license.remark'), dataIndex: 'remark', width: 140, defaultHidden: true, ellipsis: true, render: (v: string) => v || '-' },
    timeColumn(t('license.updatedAt'), 'updated_at', { defaultHidden: true }),
  ];
}

export default function LicenseList() {
  const t = usePageLocale(locale);
  const filters = useMemo<FilterField[]>(
    () => [
      { field: 'name', kind: 'text', label: t('license.name') },
      { field: 'email', kind: 'text', label: t('license.email') },
      { field: 'status', kind: 'status', label: t('license.status') },
    ],
    [t],
  );
  const cols = useMemo(() => columns(t), [t]);
  const page = useResourcePage<License>(LICENSE_PREFIX, filters);
  const title = useScreenTitle();
  return <ResourceTable page={page} title={title} columns={cols} routes={{ create: 'license.create', update: 'license.update' }} />;
}
