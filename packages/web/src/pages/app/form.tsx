// App create and update (docs/ORIGINAL-API.md §3.2). Admins and resellers name the owning user; a user owns its
// apps. On create the first key can be generated too: the answer carries it and it is shown once.
import { useState } from 'react';
import { DatePicker, Form, Input, Select, Switch } from '@arco-design/web-react';
import { APP_PREFIX, appResource, type App, type AppFields } from '@fastgate/core/entities/app';
import { Status } from '@fastgate/core/constants';
import { ADMIN_RESELLER } from '@fastgate/core/routes';
import { usePermission } from '../../components/Permission';
import { ResourceForm, type FormMode } from '../../components/ResourceForm';
import { required } from '../../components/rules';
import { AccountSelect, UserSelect } from '../../components/UserSelect';
import { useGlobalLocale, usePageLocale } from '../../locale';
import { KeyReveal } from './key/KeyReveal';
import { LimitFields, limitBody, limitValues, type LimitValues } from './LimitFields';
import locale from './locale';

/** The form's values: the app's fields (core entities/app.ts) with its limits as the limit fields hold them. */
type Values = LimitValues &
  Pick<AppFields, 'name' | 'status'> &
  Partial<Pick<AppFields, 'remark' | 'quota_expires_at'>> & {
    user_id?: number;
    is_create_key?: boolean;
  };

/** Field values → form values ("never" expires shows empty). */
const fieldValues = (f: Omit<AppFields, 'name'> & { name?: string }): Partial<Values> => ({
  ...limitValues(f),
  name: f.name,
  remark: f.remark,
  quota_expires_at: f.quota_expires_at || undefined,
  status: f.status,
});

const MAX = 100;
/** The keys lists live under `/key` (type 1): a first key created with the app shows up there. */
const ALSO = ['/key'] as const;

function AppForm({ mode }: { mode: FormMode }) {
  const t = usePageLocale(locale);
  const { g, tk } = useGlobalLocale();
  const names = usePermission(ADMIN_RESELLER);
  const [revealed, setRevealed] = useState<{ key: string; leave: () => void }>();

  return (
    <>
      <ResourceForm<App, Values>
        prefix={APP_PREFIX}
        mode={mode}
        listRoute="app.list"
        title={tk(`menu.app.${mode}`)}
        labelSpan={5}
        alsoInvalidate={ALSO}
        initialValues={{ ...fieldValues(appResource.defaults()), is_create_key: true }}
        toValues={(row) => ({ ...fieldValues(appResource.pick(row)), user_id: row.user_id })}
        toBody={(v, m) => ({
          ...(m === 'create' ? { user_id: names ? v.user_id : undefined, is_create_key: !!v.is_create_key } : {}),
          ...limitBody(v),
          name: v.name.trim(),
          remark: v.remark ?? '',
          quota_expires_at: v.quota_expires_at ?? '',
          status: v.status,
        })}
        onSaved={(result, _m, back) => {
          const key = (result as { key?: string } | null)?.key;
          if (key) setRevealed({ key, leave: back });
          else back();
        }}
      >
        {names && (
          <Form.Item
            label={t('app.owner')}
            field="user_id"
            rules={mode === 'create' ? [required(t('app.userId.required'))] : undefined}
            extra={mode === 'create' ? t('app.userId.extra') : undefined}
          >
            {/* Created for an end user; an existing app may belong to any account (a reseller's own). */}
            {mode === 'create' ? <UserSelect style={{ width: '100%' }} data-testid="app-user-id" /> : <AccountSelect disabled style={{ width: '100%' }} data-testid="app-user-id" />}
          </Form.Item>
        )}
        <Form.Item label={t('app.name')} field="name" rules={[required(t('app.name.required')), { maxLength: MAX, message: t('app.max100') }]}>
          <Input maxLength={MAX} showWordLimit data-testid="app-name" />
        </Form.Item>
        <LimitFields testId="app" />
        <Form.Item label={t('app.expiresAt')} field="quota_expires_at" extra={t('app.expiresAt.extra')}>
          <DatePicker showTime format="YYYY-MM-DD HH:mm:ss" style={{ width: 240 }} data-testid="app-expires-at" />
        </Form.Item>
        {mode === 'create' && (
          <Form.Item label={t('app.createKey')} field="is_create_key" triggerPropName="checked" extra={t('app.createKey.extra')}>
            <Switch data-testid="app-create-key" />
          </Form.Item>
        )}
        <Form.Item label={t('app.status')} field="status">
          <Select style={{ width: 220 }} data-testid="app-status">
            <Select.Option value={Status.Normal}>{g('resource.status.1')}</Select.Option>
            <Select.Option value={Status.Disabled}>{g('resource.status.2')}</Select.Option>
          </Select>
        </Form.Item>
        <Form.Item label={t('app.remark')} field="remark" rules={[{ maxLength: 500 }]}>
          <Input.TextArea maxLength={500} showWordLimit autoSize={{ minRows: 2, maxRows: 6 }} data-testid="app-remark" />
        </Form.Item>
      </ResourceForm>
      <KeyReveal keys={revealed ? [revealed.key] : []} onClose={() => revealed?.leave()} />
    </>
  );
}

export const CreateApp = () => <AppForm mode="create" />;
export const UpdateApp = () => <AppForm mode="update" />;
