// Sign in with account + password or email + code (docs/ORIGINAL-API.md §4). The channel sent becomes the role.
import { useState } from 'react';
import { Button, Form, Input, Link, Message, Tabs } from '@arco-design/web-react';
import { IconEmail, IconLock, IconSafe, IconUser } from '@arco-design/web-react/icon';
import { useNavigate, useSearchParams } from 'react-router';
import type { Channel } from '@fastgate/core/constants';
import { emailField } from '@fastgate/core/schemas/fields';
import type { LoginOptions, LoginResult } from '@fastgate/core/schemas/auth';
import { authApi } from '../../api/auth';
import { afterLoginPath } from '../../shell/routing';
import { loadUserInfo } from '../../shell/session';
import { CaptchaButton } from '../../components/CaptchaButton';
import { required, zodRule } from '../../components/rules';
import { usePageLocale } from '../../locale';
import { useUserStore } from '../../stores/user';
import locale from './locale';
import { TwoFactorStep } from './TwoFactorStep';
import styles from './login.module.css';

type Method = 'account' | 'code';
interface Values {
  account?: string;
  password?: string;
  email?: string;
  code?: string;
}

interface Props {
  channel: Channel;
  options: LoginOptions;
  onRegister: () => void;
  onForget: () => void;
  /** Prefilled after a registration or a password reset. */
  initialAccount?: string;
}

export function LoginForm({ channel, options, onRegister, onForget, initialAccount }: Props) {
  const t = usePageLocale(locale);
  const [form] = Form.useForm<Values>();
  const [chosen, setChosen] = useState<Method>('account');
  const [loading, setLoading] = useState(false);
  /** Set when the account uses two-factor sign-in: the second step's ticket. */
  const [ticket, setTicket] = useState<string>();
  const navigate = useNavigate();
  const [search] = useSearchParams();

  const methods: Method[] = [...(options.account_login ? ['account' as const] : []), ...(options.email_login ? ['code' as const] : [])];
  const method = methods.includes(chosen) ? chosen : methods[0];

  /** The session is open: keep the token, load who it is, go where the login was asked from. */
  const finish = async (result: LoginResult) => {
    const store = useUserStore.getState();
    store.setToken(result.token);
    store.setRole(channel);
    try {
      await loadUserInfo();
    } catch (err) {
      store.setToken(null);
      throw err;
    }
    Message.success(t('login.success'));
    navigate(afterLoginPath(search), { replace: true });
  };

  const submit = async (values: Values) => {
    setLoading(true);
    const store = useUserStore.getState();
    try {
      const result = await authApi.login(
        method === 'code'
          ? { account: values.email ?? '', code: values.code, channel, method }
          : { account: values.account ?? '', password: values.password, channel, method: 'account' },
      );
      if ('two_factor' in result) setTicket(result.ticket);
      else await finish(result);
    } catch {
      // docs/SPEC.md §4.1: a failed login clears the token (errors are shown by the HTTP client).
      store.setToken(null);
    } finally {
      setLoading(false);
    }
  };

  const sendCode = async () => {
    const { email } = await form.validate(['email']);
    await authApi.emailCode(email ?? '', 'login', channel);
  };

  if (!method) return <p className={styles.note}>{t('login.noMethod')}</p>;
  if (ticket) return <TwoFactorStep ticket={ticket} onDone={finish} onBack={() => setTicket(undefined)} />;

  return (
    <>
      <Tabs activeTab={method} onChange={(key) => setChosen(key as Method)} className={styles.tabs}>
        {options.account_login && <Tabs.TabPane key="account" title={<span data-testid="login-tab-account">{t('login.tab.account')}</span>} />}
        {options.email_login && <Tabs.TabPane key="code" title={<span data-testid="login-tab-code">{t('login.tab.code')}</span>} />}
      </Tabs>
      <Form
        form={form}
        layout="vertical"
        initialValues={{ account: initialAccount, email: initialAccount }}
        onSubmit={(values) => void submit(values)} className={styles.form} data-testid="login-form">
        {method === 'account' ? (
          <>
            <Form.Item field="account" rules={[required(t('login.account.required'))]}>
              <Input size="large" prefix={<IconUser />} placeholder={t('login.account')} autoComplete="username" data-testid="login-account" />
            </Form.Item>
            <Form.Item field="password" rules={[required(t('login.password.required'))]}>
              <Input.Password
                size="large"
                prefix={<IconLock />}
                placeholder={t('login.password')}
                autoComplete="current-password"
                data-testid="login-password"
              />
            </Form.Item>
          </>
        ) : (
          <>
            <Form.Item field="email" rules={[required(t('login.email.required')), zodRule(emailField)]}>
              <Input size="large" prefix={<IconEmail />} placeholder={t('login.email')} autoComplete="email" data-testid="login-email" />
            </Form.Item>
            <div className={styles.codeRow}>
              <Form.Item field="code" rules={[required(t('login.code.required'))]} className={styles.codeItem}>
                <Input size="large" prefix={<IconSafe />} placeholder={t('login.code')} maxLength={6} data-testid="login-code" />
              </Form.Item>
              <CaptchaButton send={sendCode} size="large" />
            </div>
          </>
        )}
        <div className={styles.actions}>
          {options.email_retrieve ? (
            <Link onClick={onForget} data-testid="login-forget-link">
              {t('login.forget')}
            </Link>
          ) : (
            <span />
          )}
          {options.email_register && (
            <Link onClick={onRegister} data-testid="login-register-link">
              {t('login.register')}
            </Link>
          )}
        </div>
        <Button type="primary" htmlType="submit" long size="large" loading={loading} data-testid="login-submit">
          {t('login.submit')}
        </Button>
      </Form>
      <p className={styles.note} data-testid="login-note">
        {channel === 'admin' ? t('login.contactAdmin') : options.email_login ? t('login.autoRegister') : null}
      </p>
    </>
  );
}
