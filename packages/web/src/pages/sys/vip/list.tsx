// VIP level list (docs/SPEC.md §2.2, admin and reseller): an admin sees every level, a reseller its own.
import { useMemo } from 'react';
import { Space, Tag, Typography } from '@arco-design/web-react';
import { VIP_PREFIX, type VipLevel } from '@fastgate/core/entities/vip';
import { ResourceTable, type ResourceColumn } from '../../../components/ResourceTable';
import { timeColumn } from '../../../components/time-column';
import { PublicSwitch } from '../../../components/StatusSwitch';
import type { FilterField } from '../../../components/SearchForm';
import { useResourcePage } from '../../../hooks/resource';
import { useScreenTitle } from '../../../hooks/screen-title';
import { usePageLocale, type PageDict } from '../../../locale';
import { NameTags } from '../../../components/NameTags';
import { DiscountTag, RateLimitTags } from '../../../components/group/GroupTags';
import locale from './locale';

type Key = typeof locale extends PageDict<infer K> ? K : never;
type T = (key: Key, vars?: Record<string, string | number>) => string;

function columns(t: T): ResourceColumn<VipLevel>[] {
  return [
    {
      title: t('vip.name'),
      dataIndex: 'name',
      width: 160,
      render: (name: string, row) => (
        <Space size={6}>
          <Tag color={row.color || 'gold'} data-testid={`vip-badge-${row.id}`}>
            {name}
          </Tag>
          {row.is_default && <Tag size="small" color="green">{t('vip.default')}</Tag>}
        </Space>
      ),
    },
    { title: t('vip.discount'), dataIndex: 'discount', width: 90, render: (d: number) => <DiscountTag fraction={d} /> },
    { title: t('vip.duration'), dataIndex: 'duration', width: 120, defaultHidden: true, render: (d: number) => (d > 0 ? t('vip.minutes', { n: d }) : t('vip.permanent')) },
    { title: t('vip.groups'), dataIndex: 'group_names', width: 170, render: (names: string[]) => <NameTags names={names} /> },
    { title: t('vip.rateLimits'), dataIndex: 'rate_limits', width: 150, render: (_: unknown, row) => <RateLimitTags limits={row.rate_limits} /> },
    {
      title: t('vip.rules'),
      dataIndex: 'rules',
      width: 200,
      defaultHidden: true,
      render: (_: unknown, row) =>
        row.rules.length ? (
          <Space direction="vertical" size={2}>
            {row.rules.map((r, i) => (
              <Typography.Text key={i} style={{ fontSize: 12 }}>
                {t(r.type === 'upgrade' ? 'vip.rule.upgrade' : 'vip.rule.downgrade')} → {r.target_level_name || r.target_level}
              </Typography.Text>
            ))}
          </Space>
        ) : (
          '-'
        ),
    },
    { title: t('vip.isPublic'), dataIndex: 'is_public', width: 90, defaultHidden: true, render: (v: boolean, row) => <PublicSwitch prefix={VIP_PREFIX} id={row.id} value={v} /> },
    { title: t('vip.sort'), dataIndex: 'sort', width: 70, defaultHidden: true },
    { title: t('vip.remark'), dataIndex: 'remark', width: 140, defaultHidden: true, ellipsis: true, render: (remark: string) => remark || '-' },
    timeColumn(t('vip.updatedAt'), 'updated_at'),
  ];
}

export default function VipList() {
  const t = usePageLocale(locale);
  const filters = useMemo<FilterField[]>(
    () => [
      { field: 'name', kind: 'text', label: t('vip.name') },
      { field: 'remark', kind: 'text', label: t('vip.remark') },
      { field: 'status', kind: 'status', label: t('vip.status') },
    ],
    [t],
  );
  const cols = useMemo(() => columns(t), [t]);
  const page = useResourcePage<VipLevel>(VIP_PREFIX, filters);
  const title = useScreenTitle();
  return <ResourceTable page={page} title={title} columns={cols} routes={{ create: 'sys.vip.create', update: 'sys.vip.update' }} />;
}
