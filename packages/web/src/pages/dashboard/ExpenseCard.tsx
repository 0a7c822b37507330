// The expense card (docs/ORIGINAL-API.md §1.4 `GET /dashboard/expense`): the caller's balance, what it used, its
// expiry and, for a reseller, what it gave its users and still holds; plus the quota-warning settings
// (`POST /dashboard/quota/warning`: switch, threshold in dollars, days before expiry).
import { useState } from 'react';
import { Button, Card, Form, InputNumber, Message, Modal, Skeleton, Switch, Typography } from '@arco-design/web-react';
import { IconNotification } from '@arco-design/web-react/icon';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Expense } from '@fastgate/core/entities/user';
import { formatUsd } from '@fastgate/core/money';
import { RESELLER_ONLY } from '@fastgate/core/routes';
import { usePermission } from '../../components/Permission';
import { useGlobalLocale, usePageLocale } from '../../locale';
import { dashboardApi, dashboardKeys, type QuotaWarningBody } from './api';
import locale from './locale';
import { Headline } from './Headline';
import { useFormLayout } from '../../hooks/breakpoint';

/** Mirrors the server's limits (core entities/user.ts warningThresholdField, expireWarningThresholdField). */
const MAX_THRESHOLD = 1_000_000_000;
const MAX_DAYS = 3650;

function WarningForm({ expense, visible, onClose }: { expense: Expense; visible: boolean; onClose: () => void }) {
  const formLayout = useFormLayout();
  const t = usePageLocale(locale);
  const { g } = useGlobalLocale();
  const client = useQueryClient();
  const [form] = Form.useForm<QuotaWarningBody>();
  const [saving, setSaving] = useState(false);
  const submit = async () => {
    let values: QuotaWarningBody;
    try {
      values = await form.validate();
    } catch {
      return;
    }
    setSaving(true);
    try {
      await dashboardApi.saveQuotaWarning({ quota_warning: !!values.quota_warning, warning_threshold: values.warning_threshold ?? 0, expire_warning_threshold: values.expire_warning_threshold ?? 0 });
      Message.success(t('workplace.expense.saved'));
      await client.invalidateQueries({ queryKey: dashboardKeys.expense });
      onClose();
    } catch {
      // Shown by the HTTP client.
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      visible={visible}
      title={t('workplace.expense.warning')}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={saving}
      okText={g('common.save')}
      unmountOnExit
      okButtonProps={{ 'data-testid': 'warning-submit' } as Record<string, string>}
    >
      <Form<QuotaWarningBody>
        form={form}
        layout={formLayout}
        labelCol={{ span: 8 }}
        wrapperCol={{ span: 16 }}
        initialValues={{ quota_warning: expense.quota_warning, warning_threshold: expense.warning_threshold, expire_warning_threshold: expense.expire_warning_threshold }}
        data-testid="warning-form"
      >
        <Form.Item label={t('workplace.expense.warning.switch')} field="quota_warning" triggerPropName="checked">
          <Switch data-testid="warning-switch" />
        </Form.Item>
        <Form.Item label={t('workplace.expense.warning.threshold')} field="warning_threshold" extra={t('workplace.expense.warning.threshold.extra')} rules={[{ required: true, message: t('workplace.expense.warning.threshold.required') }]}>
          <InputNumber min={0} max={MAX_THRESHOLD} precision={0} prefix="$" style={{ width: 200 }} data-testid="warning-threshold" />
        </Form.Item>
        <Form.Item label={t('workplace.expense.warning.days')} field="expire_warning_threshold" extra={t('workplace.expense.warning.days.extra')} rules={[{ required: true, message: t('workplace.expense.warning.days.required') }]}>
          <InputNumber min={0} max={MAX_DAYS} precision={0} suffix={t('workplace.expense.days')} style={{ width: 200 }} data-testid="warning-days" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

type T = (key: keyof (typeof locale)['zh-CN'], vars?: Record<string, string | number>) => string;

/** "On · below $5 · 3 days before expiry": a zero threshold or day count warns of nothing and is left out. */
function warningSummary(e: Expense, t: T): string {
  return [
    t('workplace.expense.warning.on'),
    ...(e.warning_threshold > 0 ? [t('workplace.expense.warning.below', { threshold: e.warning_threshold })] : []),
    ...(e.expire_warning_threshold > 0 ? [t('workplace.expense.warning.before', { days: e.expire_warning_threshold })] : []),
  ].join(' · ');
}

export function ExpenseCard() {
  const t = usePageLocale(locale);
  const reseller = usePermission(RESELLER_ONLY);
  const [editing, setEditing] = useState(false);
  const expense = useQuery({ queryKey: dashboardKeys.expense, queryFn: dashboardApi.expense, staleTime: 0 });
  const e = expense.data;
  return (
    <Card
      bordered={false}
      title={t('workplace.expense.title')}
      extra={
        e && (
          <Button type="text" size="small" icon={<IconNotification />} onClick={() => setEditing(true)} data-testid="warning-open">
            {t('workplace.expense.warning')}
          </Button>
        )
      }
      data-testid="workplace-expense"
    >
      <Skeleton loading={expense.isLoading} text={{ rows: 4 }} animation>
        {e && (
          <>
            <Headline
              label={t('workplace.expense.quota')}
              value={formatUsd(e.quota)}
              testId="expense-quota"
              details={[
                { label: t('workplace.expense.used'), value: <span data-testid="expense-used">{formatUsd(e.used_quota)}</span> },
                ...(reseller
                  ? [
                      { label: t('workplace.expense.allocated'), value: <span data-testid="expense-allocated">{formatUsd(e.allocated_quota)}</span> },
                      { label: t('workplace.expense.toBeAllocated'), value: <span data-testid="expense-to-be-allocated">{formatUsd(e.to_be_allocated)}</span> },
                    ]
                  : []),
                { label: t('workplace.expense.expiresAt'), value: <span data-testid="expense-expires">{e.quota_expires_at || t('workplace.expense.never')}</span> },
                {
                  label: t('workplace.expense.warning'),
                  value: e.quota_warning ? (
                    <span style={{ color: 'rgb(var(--orange-6))' }} data-testid="expense-warning">
                      {warningSummary(e, t)}
                    </span>
                  ) : (
                    <Typography.Text type="secondary" data-testid="expense-warning">
                      {t('workplace.expense.warning.off')}
                    </Typography.Text>
                  ),
                },
              ]}
            />
          </>
        )}
      </Skeleton>
      {e && <WarningForm expense={e} visible={editing} onClose={() => setEditing(false)} />}
    </Card>
  );
}
