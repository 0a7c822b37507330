// My group (docs/SPEC.md §2.2, reseller and user): the groups the account may use, with their discount, models and
// limits. `/group/page` answers a user exactly those; a reseller also gets the groups it owns (they are for
// its users, not for itself: catalogue/access.ts), so only admin groups are kept for it.
import { useMemo, useState } from 'react';
import { Alert, Card, Input, Space, Table, Typography, type TableColumnProps } from '@arco-design/web-react';
import { IconSearch } from '@arco-design/web-react/icon';
import { useQuery } from '@tanstack/react-query';
import { GROUP_PREFIX, type Group } from '@fastgate/core/entities/group';
import { RESELLER_ONLY } from '@fastgate/core/routes';
import { resourceApi } from '../../../api/resource';
import { resourceKeys } from '../../../hooks/resource';
import { usePageLocale } from '../../../locale';
import { DefaultGroupTag, DiscountTag, ExpiresAt, QuotaUsed, RateLimitTags } from '../../../components/group/GroupTags';
import { NameTags } from '../../../components/NameTags';
import { usePermission } from '../../../components/Permission';
import locale from './locale';

/** docs/ORIGINAL-API.md §3.8: admin groups carry user_id 0. */
const ADMIN_OWNER = 0;
/** Accounts hold a handful of groups: one server page covers them, and the table pages locally. */
const ALL = { current: 1, pageSize: 1000 };

export default function MyGroup() {
  const t = usePageLocale(locale);
  const reseller = usePermission(RESELLER_ONLY);
  const [name, setName] = useState('');
  const query = useQuery({ queryKey: resourceKeys.page(GROUP_PREFIX, { ...ALL, mine: true }), queryFn: () => resourceApi<Group>(GROUP_PREFIX).page(ALL) });

  const rows = useMemo(() => {
    const usable = (query.data?.items ?? []).filter((g) => !reseller || g.user_id === ADMIN_OWNER);
    const needle = name.trim().toLowerCase();
    return needle ? usable.filter((g) => g.name.toLowerCase().includes(needle)) : usable;
  }, [query.data, reseller, name]);

  const columns: TableColumnProps<Group>[] = [
    {
      title: t('myGroup.name'),
      dataIndex: 'name',
      width: 200,
      render: (value: string, row) => (
        <Space size={6}>
          <Typography.Text bold>{value}</Typography.Text>
          {row.is_default && <DefaultGroupTag />}
        </Space>
      ),
    },
    { title: t('myGroup.discount'), dataIndex: 'discount', width: 100, render: (d: number, row) => <DiscountTag fraction={d} testId={`my-group-discount-${row.id}`} /> },
    { title: t('myGroup.models'), dataIndex: 'model_names', width: 300, render: (names: string[]) => <NameTags names={names} max={6} /> },
    { title: t('myGroup.rateLimits'), dataIndex: 'rate_limits', width: 200, render: (_: unknown, row) => <RateLimitTags limits={row.rate_limits} /> },
    { title: t('myGroup.quota'), dataIndex: 'quota', width: 170, render: (_: unknown, row) => <QuotaUsed limited={row.is_limit_quota} quota={row.quota} used={row.used_quota} /> },
    { title: t('myGroup.expiresAt'), dataIndex: 'expires_at', width: 200, render: (value: string) => <ExpiresAt value={value} /> },
  ];

  return (
    <Card bordered={false} title={t('myGroup.title')} data-testid="my-group">
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        <Alert type="info" content={t('myGroup.hint')} />
        <Input allowClear prefix={<IconSearch />} placeholder={t('myGroup.search')} value={name} onChange={setName} style={{ width: 280 }} data-testid="my-group-search" />
        <Table<Group>
          rowKey="id"
          loading={query.isLoading}
          columns={columns}
          data={rows}
          border={false}
          scroll={{ x: true }}
          noDataElement={<Typography.Text type="secondary">{t('myGroup.empty')}</Typography.Text>}
          pagination={{ pageSize: 20, hideOnSinglePage: true, showTotal: true }}
          data-testid="my-group-table"
        />
      </Space>
    </Card>
  );
}
