// Group form section: quota limit and the six rate limits (docs/SPEC.md §5: empty or 0 = unlimited).
import { Form, Grid, InputNumber, Switch } from '@arco-design/web-react';
import { QuotaInput } from '../../components/QuotaInput';
import { usePageLocale } from '../../locale';
import locale from './locale';
import { RATE_LIMIT_KEYS } from '../../components/group/display';
import type { GroupValues } from './values';

export function LimitsSection() {
  const t = usePageLocale(locale);
  return (
    <>
      <Form.Item label={t('group.limitQuota')} field="is_limit_quota" triggerPropName="checked" extra={t('group.limitQuota.extra')}>
        <Switch data-testid="group-limit-quota" />
      </Form.Item>
      <Form.Item shouldUpdate noStyle>
        {(values: Partial<GroupValues>) =>
          values.is_limit_quota ? (
            <Form.Item label={t('group.quota')} field="quota" rules={[{ required: true, type: 'number', min: 0 }]}>
              <QuotaInput data-testid="group-quota" />
            </Form.Item>
          ) : null
        }
      </Form.Item>
      <Form.Item label={t('group.rateLimits')} extra={t('group.rateLimits.extra')}>
        <Grid.Row gutter={[12, 8]} data-testid="group-rate-limits">
          {RATE_LIMIT_KEYS.map((k) => (
            <Grid.Col span={8} key={k}>
              <Form.Item field={`rate_limits.${k}`} noStyle>
                <InputNumber min={0} max={1_000_000_000} precision={0} prefix={k.toUpperCase()} placeholder="0" data-testid={`group-limit-${k}`} />
              </Form.Item>
            </Grid.Col>
          ))}
        </Grid.Row>
      </Form.Item>
    </>
  );
}
