// Site config list (docs/SPEC.md §2.2, admin and reseller): one row per domain; a reseller sees its own only.
// Approval (issue 11): a reseller's site works only once an admin approves its domain; the admin
// approves or revokes in the row's actions (confirmed first); everyone sees the state as a tag.
import { useMemo } from 'react';
import { Avatar, Link, Message, Modal, Space, Tag, Tooltip, Typography } from '@arco-design/web-react';
import { SITE_CONFIG_PREFIX, SiteApproval, type SiteApprovalValue, type SiteConfig } from '@fastgate/core/entities/site-config';
import { ADMIN_ONLY } from '@fastgate/core/routes';
import { usePermission } from '../../../components/Permission';
import { ResourceTable, type ResourceColumn, type RowAction } from '../../../components/ResourceTable';
import { timeColumn } from '../../../components/time-column';
import type { FilterField } from '../../../components/SearchForm';
import { useResourceMutation, useResourcePage } from '../../../hooks/resource';
import { useScreenTitle } from '../../../hooks/screen-title';
import { usePageLocale } from '../../../locale';
import locale from './locale';
import { AccountSelect } from '../../../components/UserSelect';

type T = (key: keyof (typeof locale)['zh-CN'], vars?: Record<string, string | number>) => string;

/** The approval state as a tag; its tooltip says what that state means for the domain. */
function ApprovalTag({ row, t }: { row: SiteConfig; t: T }) {
  const approved = row.approved === SiteApproval.Approved;
  return (
    <Tooltip content={t(approved ? 'site.approval.approvedTip' : 'site.approval.pendingTip')}>
      <Tag color={approved ? 'green' : 'orange'} data-testid={`site-approval-${row.id}`}>
        {t(approved ? 'site.approval.approved' : 'site.approval.pending')}
      </Tag>
    </Tooltip>
  );
}

export default function SiteConfigList() {
  const t = usePageLocale(locale);
  const isAdmin = usePermission(ADMIN_ONLY);
  const filters = useMemo<FilterField[]>(
    () => [
      { field: 'domain', kind: 'text', label: t('site.domain') },
      { field: 'title', kind: 'text', label: t('site.title') },
      ...(isAdmin ? [{ field: 'user_id', kind: 'custom', valueType: 'number', label: t('site.userId'), render: () => <AccountSelect data-testid="filter-user_id" /> } as FilterField] : []),
      { field: 'register_tips', kind: 'text', label: t('site.registerTips') },
      { field: 'logo', kind: 'text', label: t('site.logo') },
      { field: 'status', kind: 'status', label: t('site.status') },
      {
        field: 'approved',
        kind: 'select',
        type: 'number',
        label: t('site.approval'),
        options: [
          { label: t('site.approval.pending'), value: SiteApproval.Pending },
          { label: t('site.approval.approved'), value: SiteApproval.Approved },
        ],
      },
    ],
    [t, isAdmin],
  );
  const columns = useMemo<ResourceColumn<SiteConfig>[]>(
    () => [
      {
        title: t('site.domain'),
        dataIndex: 'domain',
        width: 200,
        render: (domain: string) => (
          <Link href={`//${domain}${window.location.port ? `:${window.location.port}` : ''}/`} target="_blank" data-testid="site-row-domain">
            {domain}
          </Link>
        ),
      },
      {
        title: t('site.title'),
        dataIndex: 'title',
        width: 180,
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
      { title: t('site.approval'), dataIndex: 'approved', width: 110, render: (_: number, row) => <ApprovalTag row={row} t={t} /> },
      ...(isAdmin ? [{ title: t('site.userId'), dataIndex: 'user_id', width: 110, defaultHidden: true } as ResourceColumn<SiteConfig>] : []),
      { title: t('site.registerTips'), dataIndex: 'register_tips', width: 200, defaultHidden: true, ellipsis: true, render: (v: string) => v || '-' },
      { title: t('site.remark'), dataIndex: 'remark', width: 160, defaultHidden: true, ellipsis: true, render: (v: string) => v || '-' },
      timeColumn(t('site.updatedAt'), 'updated_at'),
    ],
    [t, isAdmin],
  );
  // Admins approve or revoke a domain from the row's actions, after a confirmation naming the domain.
  const change = useResourceMutation(SITE_CONFIG_PREFIX, 'change/approval');
  const rowActions = useMemo<RowAction<SiteConfig>[]>(() => {
    if (!isAdmin) return [];
    const confirm = (row: SiteConfig, approved: SiteApprovalValue) =>
      Modal.confirm({
        title: t(approved ? 'site.approval.approve' : 'site.approval.revoke'),
        content: t(approved ? 'site.approval.approveConfirm' : 'site.approval.revokeConfirm', { domain: row.domain }),
        onOk: async () => {
          try {
            await change.mutateAsync({ id: row.id, approved });
            Message.success(t(approved ? 'site.approval.approvedDone' : 'site.approval.revoked'));
          } catch {
            // Shown by the HTTP client.
          }
        },
      });
    return [
      { key: 'approve', label: t('site.approval.approve'), status: 'success', hidden: (row) => row.approved === SiteApproval.Approved, onClick: (row) => confirm(row, SiteApproval.Approved) },
      { key: 'revoke', label: t('site.approval.revoke'), status: 'warning', hidden: (row) => row.approved !== SiteApproval.Approved, onClick: (row) => confirm(row, SiteApproval.Pending) },
    ];
  }, [isAdmin, t, change]);
  const page = useResourcePage<SiteConfig>(SITE_CONFIG_PREFIX, filters);
  const title = useScreenTitle();
  return <ResourceTable page={page} title={title} columns={columns} rowActions={rowActions} routes={{ create: 'sys.site.create', update: 'sys.site.update', detail: 'sys.site.detail' }} />;
}
