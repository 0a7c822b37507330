// VIP center (docs/SPEC.md §2.2, every role): the caller's level as a badge in its colour, its discount, limits
// and expiry, the progress towards the next level, and the public levels.
import { Card, Descriptions, Empty, Grid, Progress, Space, Spin, Tag, Typography } from '@arco-design/web-react';
import { useQuery } from '@tanstack/react-query';
import { VIP_CENTER_PATH, type VipCenter } from '@fastgate/core/entities/vip';
import { formatUsd } from '@fastgate/core/money';
import { get } from '../../../api/http';
import { API } from '../../../api/paths';
import { useGlobalLocale, usePageLocale } from '../../../locale';
import { DiscountTag, RateLimitTags } from '../../../components/group/GroupTags';
import locale from './locale';
import { detailColumns } from '../../../lib/layout';

export default function VipCenterPage() {
  const t = usePageLocale(locale);
  const { g } = useGlobalLocale();
  const q = useQuery({ queryKey: [VIP_CENTER_PATH], queryFn: () => get<VipCenter>(`${API}${VIP_CENTER_PATH}`) });
  const data = q.data;
  if (q.isLoading || !data) return <Spin style={{ display: 'block', margin: '80px auto' }} />;
  const level = data.level;
  const next = data.next;
  const needs = next
    ? [next.recharge_quota > 0 && t('center.next.recharge', { amount: formatUsd(next.recharge_quota) }), next.used_quota > 0 && t('center.next.used', { amount: formatUsd(next.used_quota) })].filter(Boolean).join(` ${t('center.next.or')} `)
    : '';
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="vip-center">
      <Card title={t('center.level')} bordered={false}>
        {level ? (
          <Grid.Row gutter={24} align="center">
            <Grid.Col span={6} style={{ textAlign: 'center' }}>
              <div
                data-testid="vip-center-badge"
                style={{ display: 'inline-block', padding: '18px 28px', borderRadius: 12, color: '#fff', fontSize: 22, fontWeight: 600, background: level.color || 'rgb(var(--gold-6))', boxShadow: '0 4px 12px rgba(0,0,0,.12)' }}
              >
                {level.name}
              </div>
              {level.is_default && (
                <div style={{ marginTop: 8 }}>
                  <Tag size="small">{t('center.defaultLevel')}</Tag>
                </div>
              )}
            </Grid.Col>
            <Grid.Col span={18}>
              <Descriptions
                column={detailColumns(2)}
                data={[
                  { label: t('center.discount'), value: <DiscountTag fraction={level.discount} testId="vip-center-discount" /> },
                  { label: t('center.limits'), value: <RateLimitTags limits={level.rate_limits} /> },
                  { label: t('center.start'), value: level.start_time || '-' },
                  { label: t('center.expires'), value: <span data-testid="vip-center-expires">{level.expires_at || t('center.permanent')}</span> },
                  { label: t('center.recharged'), value: formatUsd(data.recharge_quota) },
                  { label: t('center.used'), value: formatUsd(data.used_quota) },
                ]}
              />
              <div style={{ marginTop: 12 }} data-testid="vip-center-next">
                {next ? (
                  <>
                    <Typography.Text>
                      {t('center.next', { name: next.level_name })}
                      {g('common.colon')}
                      {needs}
                    </Typography.Text>
                    <Progress percent={Math.round(next.progress * 100)} style={{ maxWidth: 480 }} />
                  </>
                ) : (
                  <Typography.Text type="secondary">{t('center.top')}</Typography.Text>
                )}
              </div>
            </Grid.Col>
          </Grid.Row>
        ) : (
          <Empty description={t('center.none')} />
        )}
      </Card>
      <Card title={t('center.levels')} bordered={false}>
        {data.levels.length ? (
          <Space wrap size={12} data-testid="vip-center-levels">
            {data.levels.map((l) => (
              <Card key={l.id} size="small" style={{ width: 180, borderTop: `4px solid ${l.color || 'rgb(var(--gold-6))'}` }}>
                <Space direction="vertical" size={4}>
                  <Space>
                    <Typography.Text bold>{l.name}</Typography.Text>
                    {l.id === level?.id && <Tag size="small" color="green">{t('center.current')}</Tag>}
                  </Space>
                  <DiscountTag fraction={l.discount} />
                </Space>
              </Card>
            ))}
          </Space>
        ) : (
          <Empty description={t('center.noLevels')} />
        )}
      </Card>
    </Space>
  );
}
