// Site config list (SPEC §2, admin and reseller): one row per domain; a reseller sees its own only.
import { useMemo } from 'react';
import { Avatar, Link, Space, Typography, type TableColumnProps } from '@arco-design/web-react';
import { SITE_CONFIG_PREFIX, type SiteConfig } from '@fastgate/core/entities/site-config';
import { ResourceTable } from '../../../components/ResourceTable';
import type { FilterField } from '../../../components/SearchForm';
import { useResourcePage } from '../../../hooks/resource';
import { usePageLocale } from '../../../locale';
import { useUserStore } from '../../../stores/user';
import locale from './locale';

export default function SiteConfigList() {
  const t = usePageLocale(locale);
  const isAdmin = useUserStore((s) => s.role) === 'admin';
  const filters = useMemo<FilterField[]>(
    () => [
      { field: 'domain', kind: 'text', label: t('site.domain') },
      { field: 'title', kind: 'text', label: t('site.title') },
      ...(isAdmin ? [{ field: 'user_id', kind: 'number', label: t('site.userId') } as FilterField] : []),
      { field: 'register_tips', kind: 'text', label: t('site.registerTips') },
      { field: 'logo', kind: 'text', label: t('site.logo') },
      { field: 'status', kind: 'status', label: t('site.status') },
    ],
    [t, isAdmin],
  );
  const columns = useMemo<TableColumnProps<SiteConfig>[]>(
    () => [
      {
        title: t('site.domain'),
        dataIndex: 'domain',
        width: 220,
        render: (domain: string) => (
          <Link href={`//${domain}${window.location.port ? `:${window.location.port}` : ''}/`} target="_blank" data-testid="site-row-domain">
            {domain}
          </Link>
        ),
      },
      {
        title: t('site.title'),
        dataIndex: 'title',
        width: 220,
        render: (title: string, row) => (
          <Space>
            {row.logo && (
              <Avatar size={24} shape="square">
                <img src={row.logo} alt="" />
              </Avatar>
            )}
            <Typography.Text bold>{title || '-'}</Typography.Text>
          </Space>
        ),
      },
      ...(isAdmin ? [{ title: t('site.userId'), dataIndex: 'user_id', width: 110 } as TableColumnProps<SiteConfig>] : []),
      { title: t('site.registerTips'), dataIndex: 'register_tips', width: 200, ellipsis: true, render: (v: string) => v || '-' },
      { title: t('site.remark'), dataIndex: 'remark', width: 160, ellipsis: true, render: (v: string) => v || '-' },
      { title: t('site.updatedAt'), dataIndex: 'updated_at', width: 170 },
    ],
    [t, isAdmin],
  );
  const page = useResourcePage<SiteConfig>(SITE_CONFIG_PREFIX, filters);
  return <ResourceTable page={page} columns={columns} routes={{ create: 'sys.site.create', update: 'sys.site.update' }} />;
}
