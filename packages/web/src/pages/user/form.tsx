// User and reseller create / update (docs/ORIGINAL-API.md §3.1, docs/SPEC.md §5): account, name (≤ 30), email and a
// password (required on create, optional on update, ≥ 6); the opening quota on create moves like a
// recharge (a reseller's comes out of its own balance); expiry, warnings, IP lists (wildcards allowed).
import { DatePicker, Form, Input, InputNumber, Radio, Select, Switch } from '@arco-design/web-react';
import { Status } from '@fastgate/core/constants';
import { QuotaType, RESELLER_PREFIX, USER_PREFIX, userResource, type ManagedUser, type Reseller, type UserFields } from '@fastgate/core/entities/user';
import { ADMIN_ONLY } from '@fastgate/core/routes';
import { nameField } from '@fastgate/core/schemas/fields';
import { IpListInput, ipListRule, ipListText } from '../../components/IpListInput';
import { usePermission } from '../../components/Permission';
import { QuotaInput } from '../../components/QuotaInput';
import { ResourceForm, type FormMode } from '../../components/ResourceForm';
import { ResellerSelect } from '../../components/UserSelect';
import { required, zodRule } from '../../components/rules';
import { useGlobalLocale, usePageLocale } from '../../locale';
import type { Kind } from './columns';
import locale from './locale';

/** Fields the form may leave empty, and the IP lists it holds as text. */
type Blank = 'phone' | 'quota_expires_at' | 'remark' | 'groups' | 'models' | 'warning_threshold' | 'expire_warning_threshold';

/** The form's values: the account's settings (core entities/user.ts) and what a create or update also takes. */
type Values = Omit<UserFields, Blank | 'ip_whitelist' | 'ip_blacklist'> &
  Partial<Pick<UserFields, Blank>> & {
    ip_whitelist?: string;
    ip_blacklist?: string;
    password?: string;
    quota?: number;
    quota_type?: number;
    rid?: number;
    /** Resellers: percent of list price. */
    floor?: number;
  };

/** Settings → form values ("never" expires shows empty, IP lists as lines). */
const fieldValues = (f: Omit<UserFields, 'name' | 'email' | 'account'> & Partial<Pick<UserFields, 'name' | 'email' | 'account'>>): Partial<Values> => ({
  ...f,
  quota_expires_at: f.quota_expires_at || undefined,
  ip_whitelist: ipListText(f.ip_whitelist),
  ip_blacklist: ipListText(f.ip_blacklist),
});

function AccountForm({ kind, mode }: { kind: Kind; mode: FormMode }) {
  const t = usePageLocale(locale);
  const { g, tk } = useGlobalLocale();
  const admin = usePermission(ADMIN_ONLY);
  const prefix = kind === 'user' ? USER_PREFIX : RESELLER_PREFIX;
  const menu = kind === 'user' ? `menu.user.${mode}` : `menu.sys.reseller.${mode}`;
  return (
    <ResourceForm<ManagedUser, Values>
      prefix={prefix}
      mode={mode}
      listRoute={kind === 'user' ? 'user.list' : 'sys.reseller.list'}
      title={tk(menu)}
      labelSpan={5}
      alsoInvalidate={[USER_PREFIX, RESELLER_PREFIX]}
      initialValues={{ ...fieldValues(userResource.defaults()), quota: 0, quota_type: QuotaType.Recharge, ...(kind === 'reseller' ? { floor: 100 } : {}) }}
      toValues={(row) => ({
        ...fieldValues(userResource.pick(row)),
        ...(kind === 'reseller' ? { floor: Math.round((row as Reseller).floor * 10_000) / 100 } : {}),
      })}
      toBody={(v, m) => ({
        account: v.account.trim(),
        name: v.name.trim(),
        email: (v.email ?? '').trim(),
        phone: (v.phone ?? '').trim(),
        remark: v.remark ?? '',
        quota_expires_at: v.quota_expires_at ?? '',
        is_limit_quota: v.is_limit_quota,
        quota_warning: v.quota_warning,
        warning_threshold: v.warning_threshold ?? 0,
        expire_warning_threshold: v.expire_warning_threshold ?? 0,
        ip_whitelist: v.ip_whitelist ?? '',
        ip_blacklist: v.ip_blacklist ?? '',
        status: v.status,
        groups: v.groups ?? [],
        models: v.models ?? [],
        ...(kind === 'reseller' && v.floor !== undefined ? { floor: v.floor } : {}),
        ...(m === 'create'
          ? { password: v.password, quota: v.quota ?? 0, quota_type: v.quota_type ?? QuotaType.Recharge, ...(kind === 'user' && admin && v.rid ? { rid: v.rid } : {}) }
          : v.password
            ? { password: v.password }
            : {}),
      })}
    >
      <Form.Item label={t('user.account')} field="account" rules={[required(t('user.account.required')), { maxLength: 100 }]}>
        <Input maxLength={100} data-testid="user-account" />
      </Form.Item>
      <Form.Item label={t('user.name')} field="name" rules={[required(t('user.name.required')), zodRule(nameField)]}>
        <Input maxLength={30} showWordLimit data-testid="user-name" />
      </Form.Item>
      <Form.Item label={t('user.email')} field="email" rules={[required(t('user.email.required')), { type: 'email', message: t('user.email.invalid') }]}>
        <Input maxLength={100} data-testid="user-email" />
      </Form.Item>
      <Form.Item
        label={t('user.password')}
        field="password"
        rules={[...(mode === 'create' ? [required(t('user.password.required'))] : []), { minLength: 6, message: t('user.password.min') }]}
        extra={mode === 'update' ? t('user.password.extra') : undefined}
      >
        <Input.Password autoComplete="new-password" maxLength={64} data-testid="user-password" />
      </Form.Item>
      <Form.Item label={t('user.phone')} field="phone">
        <Input maxLength={20} data-testid="user-phone" />
      </Form.Item>
      {mode === 'create' && (
        <>
          <Form.Item label={t('user.quotaType')} field="quota_type">
            <Radio.Group type="button">
              {[QuotaType.Recharge, QuotaType.Gift].map((type) => (
                <Radio key={type} value={type}>
                  {t(`deal.type.${type}`)}
                </Radio>
              ))}
            </Radio.Group>
          </Form.Item>
          <Form.Item label={t('user.openingQuota')} field="quota" rules={[required(t('user.quota.required'))]}>
            <QuotaInput data-testid="user-quota" />
          </Form.Item>
          {kind === 'user' && admin && (
            <Form.Item label={t('user.reseller')} field="rid">
              <ResellerSelect style={{ width: 360, maxWidth: '100%' }} data-testid="user-rid" />
            </Form.Item>
          )}
        </>
      )}
      {kind === 'reseller' && (
        <Form.Item label={t('user.floor')} field="floor" rules={[{ required: true, type: 'number', min: 0, max: 100, message: t('user.floor.required') }]} extra={t('user.floor.extra')}>
          <InputNumber min={0} max={100} precision={2} suffix="%" style={{ width: 220 }} data-testid="user-floor" />
        </Form.Item>
      )}
      <Form.Item label={t('user.quotaExpiresAt')} field="quota_expires_at">
        <DatePicker showTime format="YYYY-MM-DD HH:mm:ss" style={{ width: 240 }} placeholder={t('user.never')} data-testid="user-expires-at" />
      </Form.Item>
      <Form.Item label={t('user.isLimitQuota')} field="is_limit_quota" triggerPropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item label={t('user.quotaWarning')} field="quota_warning" triggerPropName="checked">
        <Switch />
      </Form.Item>
      {/* With warnings on, each threshold needs a value (0 = no warning of that kind). */}
      <Form.Item shouldUpdate={(prev: Partial<Values>, next: Partial<Values>) => prev.quota_warning !== next.quota_warning} noStyle>
        {(values: Partial<Values>) => (
          <>
            <Form.Item
              label={t('user.warningThreshold')}
              field="warning_threshold"
              rules={values.quota_warning ? [required(t('user.warningThreshold.required'))] : []}
              extra={t('user.threshold.extra')}
            >
              <InputNumber min={0} precision={0} prefix="$" style={{ width: 220 }} data-testid="user-warning-threshold" />
            </Form.Item>
            <Form.Item
              label={t('user.expireWarningThreshold')}
              field="expire_warning_threshold"
              rules={values.quota_warning ? [required(t('user.expireWarningThreshold.required'))] : []}
            >
              <InputNumber min={0} max={3650} precision={0} style={{ width: 220 }} data-testid="user-expire-warning-threshold" />
            </Form.Item>
          </>
        )}
      </Form.Item>
      <Form.Item label={t('user.ipWhitelist')} field="ip_whitelist" rules={[ipListRule({ wildcard: true })]}>
        <IpListInput wildcard data-testid="user-ip-whitelist" />
      </Form.Item>
      <Form.Item label={t('user.ipBlacklist')} field="ip_blacklist" rules={[ipListRule({ wildcard: true })]}>
        <IpListInput wildcard data-testid="user-ip-blacklist" />
      </Form.Item>
      <Form.Item label={t('user.status')} field="status">
        <Select style={{ width: 220 }}>
          <Select.Option value={Status.Normal}>{g('resource.status.1')}</Select.Option>
          <Select.Option value={Status.Disabled}>{g('resource.status.2')}</Select.Option>
        </Select>
      </Form.Item>
      <Form.Item label={t('user.remark')} field="remark" rules={[{ maxLength: 500 }]}>
        <Input.TextArea maxLength={500} showWordLimit autoSize={{ minRows: 2, maxRows: 6 }} />
      </Form.Item>
    </ResourceForm>
  );
}

export const CreateUser = () => <AccountForm kind="user" mode="create" />;
export const UpdateUser = () => <AccountForm kind="user" mode="update" />;
export const CreateReseller = () => <AccountForm kind="reseller" mode="create" />;
export const UpdateReseller = () => <AccountForm kind="reseller" mode="update" />;
