// Two-factor sign-in (TOTP) in the security tab: start with the password → scan the QR code (or type
// the secret) → confirm with a code → save the recovery codes, shown once. When on: turn it off or get
// new recovery codes, each with the password and a current code.
import { useState } from 'react';
import { Alert, Button, Form, Input, Message, Space, Spin, Tag, Typography } from '@arco-design/web-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { QRCodeSVG } from 'qrcode.react';
import { totpCodeField } from '@fastgate/core/schemas/two-factor';
import type { TwoFactorSetup, TwoFactorStatus } from '@fastgate/core/schemas/two-factor';
import { twoFactorApi } from '../../../api/user';
import { loadUserInfo } from '../../../shell/session';
import { CopyButton } from '../../../components/CopyButton';
import { required, zodRule } from '../../../components/rules';
import { usePageLocale } from '../../../locale';
import locale from './locale';
import { useSubmit } from './use-submit';
import styles from './center.module.css';
import { useFormLayout } from '../../../hooks/breakpoint';

const STATUS_KEY = ['/user/two-factor', 'status'] as const;
const layout = { labelCol: { span: 6 }, wrapperCol: { span: 18 } };

function PasswordField() {
  const t = usePageLocale(locale);
  return (
    <Form.Item label={t('security.currentPassword')} field="password" rules={[required(t('security.currentPassword.required'))]}>
      <Input.Password autoComplete="current-password" data-testid="tfa-password" />
    </Form.Item>
  );
}

/** Step 1: the password starts enrolment (a borrowed session cannot bind its own authenticator). */
function Start({ onSetup }: { onSetup: (setup: TwoFactorSetup) => void }) {
  const formLayout = useFormLayout();
  const t = usePageLocale(locale);
  const { loading, run } = useSubmit<{ password: string }>(async ({ password }) => onSetup(await twoFactorApi.setup(password)));
  return (
    <Form {...layout} layout={formLayout} onSubmit={(v) => void run(v)} data-testid="tfa-start-form">
      <PasswordField />
      <Form.Item wrapperCol={{ offset: 6 }}>
        <Button type="primary" htmlType="submit" loading={loading} data-testid="tfa-start">
          {t('tfa.start')}
        </Button>
      </Form.Item>
    </Form>
  );
}

/** Step 2: scan (or type) the secret, then prove it with the code the app shows. */
function Confirm({ setup, onConfirmed, onCancel }: { setup: TwoFactorSetup; onConfirmed: (codes: string[]) => Promise<void>; onCancel: () => void }) {
  const formLayout = useFormLayout();
  const t = usePageLocale(locale);
  const { loading, run } = useSubmit<{ code: string }>(async ({ code }) => onConfirmed((await twoFactorApi.confirm(code.trim())).recovery_codes));
  return (
    <div data-testid="tfa-confirm-step">
      <p className={styles.sectionDesc}>{t('tfa.scan')}</p>
      <div className={styles.qrRow}>
        <div className={styles.qr} data-testid="tfa-qr">
          <QRCodeSVG value={setup.totp_uri} size={168} marginSize={2} />
        </div>
        <div>
          <div className={styles.sectionDesc}>{t('tfa.secret')}</div>
          <Space>
            <Typography.Text code className={styles.secret} data-testid="tfa-secret">
              {setup.secret}
            </Typography.Text>
            <CopyButton fetch={setup.secret} />
          </Space>
        </div>
      </div>
      <Form {...layout} layout={formLayout} onSubmit={(v) => void run(v)} data-testid="tfa-confirm-form">
        <Form.Item label={t('tfa.code')} field="code" rules={[required(t('tfa.code.required')), zodRule(totpCodeField)]}>
          <Input maxLength={6} autoComplete="one-time-code" data-testid="tfa-code" />
        </Form.Item>
        <Form.Item wrapperCol={{ offset: 6 }}>
          <Space>
            <Button type="primary" htmlType="submit" loading={loading} data-testid="tfa-confirm">
              {t('tfa.confirm')}
            </Button>
            <Button onClick={onCancel}>{t('tfa.cancel')}</Button>
          </Space>
        </Form.Item>
      </Form>
    </div>
  );
}

/** The recovery codes, shown this once (only their hashes are kept). */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const t = usePageLocale(locale);
  return (
    <div data-testid="tfa-recovery">
      <Alert type="warning" content={t('tfa.codes.desc')} />
      <ul className={styles.recoveryCodes} data-testid="tfa-recovery-codes">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <Space>
        <CopyButton fetch={codes.join('\n')} type="secondary" size="default">
          {t('tfa.codes.copy')}
        </CopyButton>
        <Button type="primary" onClick={onDone} data-testid="tfa-recovery-done">
          {t('tfa.codes.done')}
        </Button>
      </Space>
    </div>
  );
}

type Action = 'disable' | 'regenerate';

/** On: the state, and turning it off or new recovery codes with the password and a current code. */
function Enabled({ status, onCodes, onChanged }: { status: TwoFactorStatus; onCodes: (codes: string[]) => void; onChanged: () => Promise<void> }) {
  const formLayout = useFormLayout();
  const t = usePageLocale(locale);
  const [action, setAction] = useState<Action>();
  const [form] = Form.useForm<{ password: string; code: string }>();
  const { loading, run } = useSubmit<{ password: string; code: string }>(async ({ password, code }) => {
    if (action === 'regenerate') onCodes((await twoFactorApi.recoveryCodes(password, code.trim())).recovery_codes);
    else {
      await twoFactorApi.disable(password, code.trim());
      Message.success(t('tfa.disabled'));
    }
    setAction(undefined);
    form.resetFields();
    await onChanged();
  });
  return (
    <div>
      <Space size={16} className={styles.statusRow}>
        <Tag color="green" data-testid="tfa-enabled">
          {t('tfa.on')}
        </Tag>
        <span className={styles.sectionDesc}>{t('tfa.codes.left', { n: status.recovery_codes_left })}</span>
        {!action && (
          <>
            <Button size="small" onClick={() => setAction('regenerate')} data-testid="tfa-regenerate">
              {t('tfa.regenerate')}
            </Button>
            <Button size="small" status="danger" onClick={() => setAction('disable')} data-testid="tfa-disable">
              {t('tfa.disable')}
            </Button>
          </>
        )}
      </Space>
      {action && (
        <Form form={form} {...layout} layout={formLayout} onSubmit={(v) => void run(v)} className={styles.sectionForm} data-testid="tfa-action-form">
          <PasswordField />
          <Form.Item label={t('tfa.currentCode')} field="code" rules={[required(t('tfa.code.required'))]}>
            <Input maxLength={32} autoComplete="one-time-code" data-testid="tfa-action-code" />
          </Form.Item>
          <Form.Item wrapperCol={{ offset: 6 }}>
            <Space>
              <Button type="primary" status={action === 'disable' ? 'danger' : undefined} htmlType="submit" loading={loading} data-testid="tfa-action-submit">
                {t(action === 'disable' ? 'tfa.disable' : 'tfa.regenerate')}
              </Button>
              <Button onClick={() => setAction(undefined)}>{t('tfa.cancel')}</Button>
            </Space>
          </Form.Item>
        </Form>
      )}
    </div>
  );
}

export function TwoFactor() {
  const t = usePageLocale(locale);
  const queryClient = useQueryClient();
  const { data } = useQuery({ queryKey: STATUS_KEY, queryFn: twoFactorApi.status });
  const [setup, setSetup] = useState<TwoFactorSetup>();
  const [codes, setCodes] = useState<string[]>();

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: STATUS_KEY });
    // `two_factor_setup` of the session user lifts the console's fence (code 70) once enrolled.
    await loadUserInfo();
  };
  const confirmed = async (recovery: string[]) => {
    setSetup(undefined);
    setCodes(recovery);
    Message.success(t('tfa.enabled'));
    await refresh();
  };

  if (!data) return <Spin />;
  return (
    <div data-testid="tfa">
      {data.required && !data.enabled && <Alert type="warning" className={styles.notice} content={t('tfa.required')} data-testid="tfa-required" />}
      {codes ? (
        <RecoveryCodes codes={codes} onDone={() => setCodes(undefined)} />
      ) : data.enabled ? (
        <Enabled status={data} onCodes={setCodes} onChanged={refresh} />
      ) : setup ? (
        <Confirm setup={setup} onConfirmed={confirmed} onCancel={() => setSetup(undefined)} />
      ) : (
        <>
          <Space className={`${styles.sectionDesc} ${styles.statusRow}`}>
            <Tag data-testid="tfa-off">{t('tfa.off')}</Tag>
            {t('tfa.intro')}
          </Space>
          <Start onSetup={setSetup} />
        </>
      )}
    </div>
  );
}
