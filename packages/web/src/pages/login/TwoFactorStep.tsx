// The sign-in's second step for two-factor accounts: the ticket from the first step plus a code from
// the authenticator app (or a recovery code) opens the session.
import { useState } from 'react';
import { Button, Form, Input, Link } from '@arco-design/web-react';
import { IconSafe } from '@arco-design/web-react/icon';
import type { LoginResult } from '@fastgate/core/schemas/auth';
import { authApi } from '../../api/auth';
import { required } from '../../components/rules';
import { usePageLocale } from '../../locale';
import locale from './locale';
import styles from './login.module.css';

interface Props {
  ticket: string;
  onDone: (result: LoginResult) => Promise<void>;
  onBack: () => void;
}

export function TwoFactorStep({ ticket, onDone, onBack }: Props) {
  const t = usePageLocale(locale);
  const [loading, setLoading] = useState(false);

  const submit = async ({ code }: { code: string }) => {
    setLoading(true);
    try {
      await onDone(await authApi.loginTotp(ticket, code.trim()));
    } catch {
      // Shown by the HTTP client; a dead ticket says "sign in again" and the back link does that.
    } finally {
      setLoading(false);
    }
  };

  return (
    <Form layout="vertical" onSubmit={(values: { code: string }) => void submit(values)} className={styles.form} data-testid="totp-form">
      <h3 data-testid="totp-title">{t('totp.title')}</h3>
      <p className={styles.subtitle}>{t('totp.desc')}</p>
      <Form.Item field="code" rules={[required(t('totp.code.required'))]}>
        <Input size="large" prefix={<IconSafe />} placeholder={t('totp.code')} maxLength={32} autoFocus autoComplete="one-time-code" data-testid="totp-code" />
      </Form.Item>
      <Button type="primary" htmlType="submit" long size="large" loading={loading} data-testid="totp-submit">
        {t('totp.submit')}
      </Button>
      <div className={styles.backRow}>
        <Link onClick={onBack} data-testid="totp-back">
          {t('login.backToLogin')}
        </Link>
      </div>
    </Form>
  );
}
