// Create, edit and batch-create app keys in one modal (docs/ORIGINAL-API.md §3.3). Create is two calls: a value from
// `/app/create/key`, then `/app/key/config` stores it with its settings; the new keys are handed to
// `onCreated` to be shown once. Edit sends the settings with the key's id.
import { useEffect, useState } from 'react';
import { Alert, DatePicker, Form, Input, InputNumber, Message, Modal, Radio, Spin } from '@arco-design/web-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { APP_KEY_DEFAULTS, QuotaExpiresRule, appKeyResource, type AppKey, type AppKeyFields } from '@fastgate/core/entities/app-key';
import { KEY_PREFIX } from '@fastgate/core/entities/provider-key';
import { MaskedKey } from '../../../components/MaskedKey';
import { recordProblem } from '../../../components/record-state';
import { required } from '../../../components/rules';
import { resourceKeys } from '../../../hooks/resource';
import { useGlobalLocale, usePageLocale } from '../../../locale';
import { LimitFields, limitBody, limitValues, type LimitValues } from '../LimitFields';
import { appKeyApi, type KeySettingsBody } from './api';
import locale from './locale';
import { AppSelect } from '../../../components/AppSelect';
import { useFormLayout } from '../../../hooks/breakpoint';

export type KeyModalMode = 'create' | 'update' | 'batch';

interface Values extends LimitValues {
  app_id?: number;
  n?: number;
  quota_expires_rule: number;
  quota_expires_at?: string;
  quota_expires_minutes?: number;
  remark?: string;
}

export interface KeyModalProps {
  /** Open while set. */
  mode: KeyModalMode | undefined;
  /** The key being edited (update). */
  id?: string;
  /** The app new keys go to when the list is filtered by one. */
  appId?: number;
  onClose: () => void;
  /** The new keys in full (create, batch). */
  onCreated: (keys: string[]) => void;
}

const MAX_MINUTES = 100 * 365 * 24 * 60;

function settingsBody(v: Values): KeySettingsBody {
  const duration = v.quota_expires_rule === QuotaExpiresRule.Duration;
  return {
    ...limitBody(v),
    quota_expires_rule: duration ? QuotaExpiresRule.Duration : QuotaExpiresRule.Fixed,
    quota_expires_at: duration ? '' : (v.quota_expires_at ?? ''),
    quota_expires_minutes: duration ? (v.quota_expires_minutes ?? 0) : 0,
    remark: v.remark ?? '',
  };
}

/** A key's settings (core entities/app-key.ts) → form values; unset times and minutes show empty. */
function settingsValues(s: AppKeyFields): Values {
  return {
    ...limitValues(s),
    quota_expires_rule: s.quota_expires_rule || QuotaExpiresRule.Fixed,
    // Rule 2 keys carry the effective expiry once used; the form edits the rule, not that time.
    quota_expires_at: s.quota_expires_rule === QuotaExpiresRule.Duration ? undefined : s.quota_expires_at || undefined,
    quota_expires_minutes: s.quota_expires_minutes || undefined,
    remark: s.remark,
  };
}

const formValues = (row: AppKey): Values => ({ ...settingsValues(appKeyResource.pick(row)), app_id: row.app_id });
/** A new key starts from the defaults the server applies. */
const newKeyValues = settingsValues(APP_KEY_DEFAULTS);

export function KeyModal({ mode, id, appId, onClose, onCreated }: KeyModalProps) {
  const formLayout = useFormLayout();
  const t = usePageLocale(locale);
  const { g } = useGlobalLocale();
  const [form] = Form.useForm<Values>();
  const client = useQueryClient();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string>();
  const editing = mode === 'update' && !!id;
  const detail = useQuery({ queryKey: resourceKeys.detail(KEY_PREFIX, id), queryFn: () => appKeyApi.detail(id!), enabled: editing, staleTime: 0 });
  const unknown = editing && recordProblem(id, detail) !== undefined;

  useEffect(() => {
    if (!mode) return;
    setError(undefined);
    form.resetFields();
    if (mode === 'update') {
      if (detail.data) form.setFieldsValue(formValues(detail.data));
    } else form.setFieldsValue({ app_id: appId, n: mode === 'batch' ? 10 : undefined });
  }, [mode, appId, detail.data, form]);

  const submit = async () => {
    if (unknown) return;
    let v: Values;
    try {
      v = await form.validate();
    } catch {
      return;
    }
    setSaving(true);
    setError(undefined);
    try {
      const settings = settingsBody(v);
      if (mode === 'update') {
        await appKeyApi.configure(id!, settings);
        Message.success(t('appKey.saved'));
      } else if (mode === 'batch') {
        const { keys } = await appKeyApi.batchCreate(v.app_id!, v.n!, settings);
        onCreated(keys.split('\n').filter(Boolean));
      } else {
        const { key } = await appKeyApi.generate(v.app_id!);
        const stored = await appKeyApi.store(v.app_id!, key, settings);
        onCreated([stored.key]);
      }
      await client.invalidateQueries({ queryKey: resourceKeys.all(KEY_PREFIX) });
      onClose();
    } catch (e) {
      // Toasted by the HTTP client; kept in the modal too.
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setSaving(false);
    }
  };

  const title = mode === 'update' ? t('appKey.edit') : mode === 'batch' ? t('appKey.batchCreate') : t('appKey.create');
  return (
    <Modal
      visible={!!mode}
      title={title}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={saving}
      maskClosable={false}
      unmountOnExit
      style={{ width: 760 }}
      // An id the server does not know (or the caller may not see) has nothing to save.
      okButtonProps={{ disabled: unknown, 'data-testid': 'key-modal-submit' } as Record<string, unknown>}
      cancelButtonProps={{ 'data-testid': 'key-modal-cancel' } as Record<string, string>}
    >
      <Spin loading={editing && detail.isFetching} style={{ display: 'block' }}>
        {unknown && <Alert type="warning" content={g('resource.loadFailed')} style={{ marginBottom: 16 }} data-testid="key-modal-unknown" />}
        {error && <Alert type="error" content={error} style={{ marginBottom: 16 }} data-testid="key-modal-error" />}
        <Form<Values>
          form={form}
          layout={formLayout}
          labelCol={{ span: 6 }}
          wrapperCol={{ span: 17 }}
          initialValues={newKeyValues}
          disabled={unknown}
          data-testid={`key-modal-${mode ?? 'closed'}`}
        >
          <Form.Item label={t('appKey.app')} field="app_id" rules={[required(t('appKey.app.required'))]}>
            <AppSelect disabled={mode === 'update'} style={{ width: 320, maxWidth: '100%' }} data-testid="key-app" />
          </Form.Item>
          {mode === 'update' && detail.data && (
            <Form.Item label={t('appKey.key')}>
              <MaskedKey value={detail.data.key} copy={() => appKeyApi.copy(id!)} testId="key-modal-key" />
            </Form.Item>
          )}
          {mode === 'batch' && (
            <Form.Item label={t('appKey.n')} field="n" rules={[required(t('appKey.n.required'))]} extra={t('appKey.n.extra')}>
              <InputNumber min={1} max={1000} precision={0} style={{ width: 160 }} data-testid="key-n" />
            </Form.Item>
          )}
          <LimitFields testId="key" />
          <Form.Item label={t('appKey.rule')} field="quota_expires_rule">
            <Radio.Group type="button" data-testid="key-rule">
              <Radio value={QuotaExpiresRule.Fixed} data-testid="key-rule-1">
                {t('appKey.rule.1')}
              </Radio>
              <Radio value={QuotaExpiresRule.Duration} data-testid="key-rule-2">
                {t('appKey.rule.2')}
              </Radio>
            </Radio.Group>
          </Form.Item>
          <Form.Item noStyle shouldUpdate={(prev: Partial<Values>, next: Partial<Values>) => prev.quota_expires_rule !== next.quota_expires_rule}>
            {(values: Partial<Values>) =>
              values.quota_expires_rule === QuotaExpiresRule.Duration ? (
                <Form.Item label={t('appKey.minutes')} field="quota_expires_minutes" rules={[required(t('appKey.minutes.required'))]} extra={t('appKey.minutes.extra')}>
                  <InputNumber min={1} max={MAX_MINUTES} precision={0} style={{ width: 200 }} data-testid="key-minutes" />
                </Form.Item>
              ) : (
                <Form.Item label={t('appKey.expiresAt')} field="quota_expires_at" extra={t('appKey.expiresAt.extra')}>
                  <DatePicker showTime format="YYYY-MM-DD HH:mm:ss" style={{ width: 240 }} data-testid="key-expires-at" />
                </Form.Item>
              )
            }
          </Form.Item>
          <Form.Item label={t('appKey.remark')} field="remark" rules={[{ maxLength: 500 }]}>
            <Input.TextArea maxLength={500} showWordLimit autoSize={{ minRows: 2, maxRows: 5 }} data-testid="key-remark" />
          </Form.Item>
        </Form>
      </Spin>
    </Modal>
  );
}
