// User / reseller detail (`?id=`): every field of docs/ORIGINAL-API.md §3.1, money in dollars, ids as names.
import { Descriptions, Space, Tag } from '@arco-design/web-react';
import type { ReactNode } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { RESELLER_PREFIX, USER_PREFIX, type Reseller } from '@fastgate/core/entities/user';
import { backTo, openedFrom, routePath } from '../../lib/navigation';
import { DetailCard } from '../../components/DetailCard';
import { recordProblem } from '../../components/record-state';
import { useResourceDetail } from '../../hooks/resource';
import { useGlobalLocale, usePageLocale } from '../../locale';
import { usd } from '../../components/Usd';
import { type Kind } from './columns';
import locale from './locale';
import { detailColumns } from '../../lib/layout';

const tags = (items: string[]) => (items.length ? <Space wrap>{items.map((x) => <Tag key={x}>{x}</Tag>)}</Space> : '-');

function AccountDetail({ kind }: { kind: Kind }) {
  const t = usePageLocale(locale);
  const { g } = useGlobalLocale();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  const id = search.get('id');
  const detail = useResourceDetail<Reseller>(kind === 'user' ? USER_PREFIX : RESELLER_PREFIX, id);
  const u = detail.data;
  const yes = (v: boolean) => (v ? <Tag color="green">{t('user.yes')}</Tag> : <Tag>{t('user.no')}</Tag>);
  const block = (title: string, data: { label: ReactNode; value: ReactNode }[]) => (
    <Descriptions title={title} column={detailColumns(2)} border data={data} labelStyle={{ width: 150 }} style={{ marginBottom: 20 }} />
  );
  const back = () => navigate(backTo(location.state, routePath(kind === 'user' ? 'user.list' : 'sys.reseller.list')));
  const edit = () => navigate(`${routePath(kind === 'user' ? 'user.update' : 'sys.reseller.update')}?id=${encodeURIComponent(id ?? '')}`, { state: openedFrom() });
  return (
    <DetailCard subject={u?.name || u?.account} problem={recordProblem(id, detail)} loading={detail.isFetching} onBack={back} onEdit={u && edit} testId="user-detail">
      {u && (
        <>
          {block(t('user.basic'), [
            { label: t('user.userId'), value: u.user_id },
            { label: t('user.account'), value: u.account },
            { label: t('user.name'), value: u.name },
            { label: t('user.email'), value: u.email || '-' },
            { label: t('user.phone'), value: u.phone || '-' },
            { label: t('user.status'), value: g(`resource.status.${u.status}` as 'resource.status.1') },
            ...(kind === 'user' ? [{ label: t('user.resellerId'), value: u.rid || '-' }] : []),
            { label: t('user.remark'), value: u.remark || '-' },
            { label: t('user.createdAt'), value: u.created_at },
            { label: t('user.updatedAt'), value: u.updated_at },
          ])}
          {block(t('user.quotaInfo'), [
            { label: t('user.quota'), value: <span data-testid="detail-quota">{usd(u.quota)}</span> },
            { label: t('user.usedQuota'), value: usd(u.used_quota) },
            ...(kind === 'reseller'
              ? [
                  { label: t('user.allocated'), value: <span data-testid="detail-allocated">{usd(u.allocated_quota)}</span> },
                  { label: t('user.toBeAllocated'), value: <span data-testid="detail-to-be-allocated">{usd(u.to_be_allocated)}</span> },
                ]
              : []),
            { label: t('user.quotaExpiresAt'), value: u.quota_expires_at || t('user.never') },
            { label: t('user.quotaType'), value: t(`deal.type.${u.quota_type}` as 'deal.type.1') },
            { label: t('user.isLimitQuota'), value: yes(u.is_limit_quota) },
            { label: t('user.quotaWarning'), value: yes(u.quota_warning) },
            { label: t('user.warningThreshold'), value: `$${u.warning_threshold}` },
            { label: t('user.expireWarningThreshold'), value: u.expire_warning_threshold },
            {
              label: t('user.notices'),
              value: (
                <Space wrap>
                  {([['warning_notice', 'user.notice.warning'], ['exhaustion_notice', 'user.notice.exhaustion'], ['expire_warning_notice', 'user.notice.expireWarning'], ['expire_notice', 'user.notice.expire']] as const).map(([f, k]) => (
                    <Tag key={f} color={u[f] ? 'orange' : undefined}>
                      {t(k)}
                      {g('common.colon')}
                      {u[f] ? t('user.yes') : t('user.no')}
                    </Tag>
                  ))}
                </Space>
              ),
            },
          ])}
          {block(t('user.accessInfo'), [
            { label: t('user.groups'), value: tags(u.group_names) },
            { label: t('user.models'), value: tags(u.model_names) },
            { label: t('user.ipWhitelist'), value: tags(u.ip_whitelist) },
            { label: t('user.ipBlacklist'), value: tags(u.ip_blacklist) },
          ])}
          {block(t('user.loginInfo'), [
            { label: t('user.loginIp'), value: u.login_ip || '-' },
            { label: t('user.loginTime'), value: u.login_time || '-' },
            { label: t('user.loginDomain'), value: u.login_domain || '-' },
            { label: t('user.vipLevel'), value: u.vip_level || '-' },
            { label: t('user.vipRecharge'), value: usd(u.vip_level_recharge_quota) },
            { label: t('user.vipUsed'), value: usd(u.vip_level_used_quota) },
            { label: t('user.vipStart'), value: u.vip_level_start_time || '-' },
            { label: t('user.vipExpires'), value: u.vip_level_expires_at || '-' },
          ])}
        </>
      )}
    </DetailCard>
  );
}

export default function UserDetail() {
  return <AccountDetail kind="user" />;
}

export function ResellerDetail() {
  return <AccountDetail kind="reseller" />;
}
