// Register (email_register) and forget-password (email_retrieve) flows: email, code, password twice.
import { useState } from 'react';
import { Button, Form, Input, Link, Message } from '@arco-design/web-react';
import { IconEmail, IconLock, IconSafe } from '@arco-design/web-react/icon';
import type { Channel } from '@fastgate/core/constants';
import { codeField, emailField, passwordField } from '@fastgate/core/schemas/fields';
import { authApi } from '../../api/auth';
import { CaptchaButton } from '../../components/CaptchaButton';
import { required, zodRule } from '../../components/rules';
import { tm, usePageLocale } from '../../locale';
import locale from './locale';
import styles from './login.module.css';

interface Values {
  email: string;
  code: string;
  password: string;
  confirm: string;
}

interface Props {
  mode: 'register' | 'forget';
  channel: Channel;
  onDone: (email: string) => void;
  onBack: () => void;
}

export function AccountForm({ mode, channel, onDone, onBack }: Props) {
  const t = usePageLocale(locale);
  const [form] = Form.useForm<Values>();
  const [loading, setLoading] = useState(false);
  const prefix = mode === 'register' ? 'register' : 'forget';

  const sendCode = async () => {
    const { email } = await form.validate(['email']);
    await authApi.emailCode(email ?? '', mode === 'register' ? 'register' : 'forget_password', channel);
  };

  const submit = async (values: Values) => {
    setLoading(true);
    try {
      const body = { account: values.email, password: values.password, code: values.code, channel };
      await (mode === 'register' ? authApi.register(body) : authApi.forget(body));
      Message.success(t(`${prefix}.success`));
      onDone(values.email);
    } catch {
      // Shown by the HTTP client.
    } finally {
      setLoading(false);
    }
  };

  return (
    <Form form={form} layout="vertical" onSubmit={(values) => void submit(values)} className={styles.form} data-testid={`${mode}-form`}>
      <Form.Item field="email" rules={[required(t('login.email.required')), zodRule(emailField)]}>
        <Input size="large" prefix={<IconEmail />} placeholder={t('login.email')} autoComplete="email" data-testid={`${mode}-email`} />
      </Form.Item>
      <div className={styles.codeRow}>
        <Form.Item field="code" rules={[required(t('login.code.required')), zodRule(codeField)]} className={styles.codeItem}>
          <Input size="large" prefix={<IconSafe />} placeholder={t('login.code')} maxLength={6} data-testid={`${mode}-code`} />
        </Form.Item>
        <CaptchaButton send={sendCode} size="large" testId={`${mode}-captcha-button`} />
      </div>
      <Form.Item field="password" rules={[required(t('login.password.required')), zodRule(passwordField)]}>
        <Input.Password
          size="large"
          prefix={<IconLock />}
          placeholder={mode === 'register' ? t('login.password') : t('form.newPassword')}
          autoComplete="new-password"
          data-testid={`${mode}-password`}
        />
      </Form.Item>
      <Form.Item
        field="confirm"
        dependencies={['password']}
        rules={[
          required(t('form.confirm.required')),
          {
            validator: (value: string | undefined, callback: (error?: string) => void) =>
              callback(value && value !== form.getFieldValue('password') ? tm('field.passwords_differ') : undefined),
          },
        ]}
      >
        <Input.Password
          size="large"
          prefix={<IconLock />}
          placeholder={t('form.confirmPassword')}
          autoComplete="new-password"
          data-testid={`${mode}-confirm`}
        />
      </Form.Item>
      <Button type="primary" htmlType="submit" long size="large" loading={loading} data-testid={`${mode}-submit`}>
        {t(`${prefix}.submit`)}
      </Button>
      <div className={styles.backRow}>
        <Link onClick={onBack} data-testid={`${mode}-back`}>
          {t('login.backToLogin')}
        </Link>
      </div>
    </Form>
  );
}
