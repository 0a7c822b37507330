// Security settings (docs/SPEC.md §2.4, §5): password change, two-factor sign-in, email binding and phone binding.
import { useState, type ReactNode } from 'react';
import { Button, Form, Input, Message } from '@arco-design/web-react';
import { emailField, phoneField, codeField, strongPasswordField } from '@fastgate/core/schemas/fields';
import { authApi } from '../../../api/auth';
import { userApi } from '../../../api/user';
import { loadUserInfo } from '../../../shell/session';
import { CaptchaButton } from '../../../components/CaptchaButton';
import { required, zodRule } from '../../../components/rules';
import { tm, useGlobalLocale, usePageLocale } from '../../../locale';
import { useUserStore } from '../../../stores/user';
import locale from './locale';
import { TwoFactor } from './TwoFactor';
import { useSubmit } from './use-submit';
import styles from './center.module.css';
import { useFormLayout } from '../../../hooks/breakpoint';

const layout = { labelCol: { span: 6 }, wrapperCol: { span: 18 } };

function Section({ title, desc, children, testId }: { title: string; desc: ReactNode; children: ReactNode; testId: string }) {
  return (
    <section className={styles.section} data-testid={testId}>
      <h4 className={styles.sectionTitle}>{title}</h4>
      <p className={styles.sectionDesc}>{desc}</p>
      <div className={styles.sectionForm}>{children}</div>
    </section>
  );
}

interface PasswordValues {
  old_password: string;
  new_password: string;
  confirm: string;
}

function PasswordForm() {
  const formLayout = useFormLayout();
  const t = usePageLocale(locale);
  const { g } = useGlobalLocale();
  const [form] = Form.useForm<PasswordValues>();
  const { loading, run } = useSubmit<PasswordValues>(async ({ old_password, new_password }) => {
    await userApi.changePassword({ old_password, new_password });
    Message.success(t('security.password.changed'));
    form.resetFields();
  });
  return (
    <Form form={form} {...layout} layout={formLayout} onSubmit={(v) => void run(v)} data-testid="password-form">
      <Form.Item label={t('security.oldPassword')} field="old_password" rules={[required(t('security.oldPassword.required'))]}>
        <Input.Password autoComplete="current-password" data-testid="password-old" />
      </Form.Item>
      <Form.Item
        label={t('security.newPassword')}
        field="new_password"
        dependencies={['old_password']}
        rules={[
          required(t('security.newPassword.required')),
          zodRule(strongPasswordField),
          {
            validator: (value: string | undefined, callback: (error?: string) => void) =>
              callback(value && value === form.getFieldValue('old_password') ? tm('auth.same_password') : undefined),
          },
        ]}
      >
        <Input.Password autoComplete="new-password" data-testid="password-new" />
      </Form.Item>
      <Form.Item
        label={t('security.confirmPassword')}
        field="confirm"
        dependencies={['new_password']}
        rules={[
          required(t('security.confirm.required')),
          {
            validator: (value: string | undefined, callback: (error?: string) => void) =>
              callback(value && value !== form.getFieldValue('new_password') ? tm('field.passwords_differ') : undefined),
          },
        ]}
      >
        <Input.Password autoComplete="new-password" data-testid="password-confirm" />
      </Form.Item>
      <Form.Item wrapperCol={{ offset: 6 }}>
        <Button type="primary" htmlType="submit" loading={loading} data-testid="password-submit">
          {g('common.submit')}
        </Button>
      </Form.Item>
    </Form>
  );
}

interface BindValues {
  target: string;
  code: string;
  password: string;
}

/** Email or phone binding: the new value, a code sent to it and the current password. */
function BindForm({ kind }: { kind: 'email' | 'phone' }) {
  const formLayout = useFormLayout();
  const t = usePageLocale(locale);
  const role = useUserStore((s) => s.role) ?? 'user';
  const [form] = Form.useForm<BindValues>();
  const { loading, run } = useSubmit<BindValues>(async ({ target, code, password }) => {
    if (kind === 'email') await userApi.changeEmail({ email: target, code, password });
    else await userApi.changePhone({ phone: target, code, password });
    Message.success(t(kind === 'email' ? 'security.email.changed' : 'security.phone.changed'));
    form.resetFields();
    await loadUserInfo();
  });
  const sendCode = async () => {
    const { target } = await form.validate(['target']);
    if (kind === 'email') await authApi.emailCode(target ?? '', 'change_email', role);
    else await authApi.smsCode(target ?? '', 'change_phone', role);
  };
  return (
    <Form form={form} {...layout} layout={formLayout} onSubmit={(v) => void run(v)} data-testid={`${kind}-form`}>
      <Form.Item
        label={t(kind === 'email' ? 'security.email.new' : 'security.phone.new')}
        field="target"
        rules={[required(t(kind === 'email' ? 'security.email.required' : 'security.phone.required')), zodRule(kind === 'email' ? emailField : phoneField)]}
      >
        <Input autoComplete={kind === 'email' ? 'email' : 'tel'} data-testid={`${kind}-new`} />
      </Form.Item>
      <Form.Item label={t('security.code')} required>
        <div className={styles.codeRow}>
          <Form.Item field="code" noStyle={{ showErrorTip: true }} rules={[required(t('security.code.required')), zodRule(codeField)]}>
            <Input maxLength={6} data-testid={`${kind}-code`} />
          </Form.Item>
          <CaptchaButton send={sendCode} testId={`${kind}-captcha-button`} />
        </div>
      </Form.Item>
      <Form.Item label={t('security.currentPassword')} field="password" rules={[required(t('security.currentPassword.required'))]}>
        <Input.Password autoComplete="current-password" data-testid={`${kind}-password`} />
      </Form.Item>
      <Form.Item wrapperCol={{ offset: 6 }}>
        <Button type="primary" htmlType="submit" loading={loading} data-testid={`${kind}-submit`}>
          {t('security.bind')}
        </Button>
      </Form.Item>
    </Form>
  );
}

export function Security() {
  const t = usePageLocale(locale);
  const { g } = useGlobalLocale();
  const info = useUserStore((s) => s.info);
  // Sent here to set up two-factor sign-in (code 70): that section comes first, and stays put once done.
  const [twoFactorFirst] = useState(() => !!info?.two_factor_setup);
  const twoFactor = (
    <Section testId="security-two-factor" title={t('tfa.title')} desc={t('tfa.desc')}>
      <TwoFactor />
    </Section>
  );
  return (
    <div>
      {twoFactorFirst && twoFactor}
      <Section testId="security-password" title={t('security.password.title')} desc={t('security.password.desc')}>
        <PasswordForm />
      </Section>
      {!twoFactorFirst && twoFactor}
      <Section testId="security-email" title={t('security.email.title')} desc={g('common.labelled', { label: t('security.current'), text: info?.email || t('center.unbound') })}>
        <BindForm kind="email" />
      </Section>
      <Section testId="security-phone" title={t('security.phone.title')} desc={g('common.labelled', { label: t('security.current'), text: info?.phone || t('center.unbound') })}>
        <BindForm kind="phone" />
      </Section>
    </div>
  );
}
