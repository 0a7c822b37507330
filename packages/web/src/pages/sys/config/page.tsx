// System config (docs/SPEC.md §2.4 sys.config, docs/ORIGINAL-API.md §3.10), admin only: tabs all / global / general / task /
// API / digital human group the sections; each section is a card with its own switch, save and reset.
// Every write takes effect at once (the server publishes it to the gateway and the login pages).
import { useMemo, useState } from 'react';
import { Button, Card, Checkbox, Empty, Form, Input, InputNumber, Message, Popconfirm, Space, Spin, Switch, Tabs } from '@arco-design/web-react';
import { IconDelete, IconPlus, IconRefresh } from '@arco-design/web-react/icon';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { ORIGINAL_ONLY_FIELDS, SYS_CONFIG_SECTIONS, SYS_CONFIG_TABS, sysSectionSchemas, type SysConfigSection, type SysConfigWire } from '@fastgate/core/sys-config';
import { TOAST_MS } from '@fastgate/core/constants';
import { get, post } from '../../../api/http';
import { fieldErrorOf } from '../../../lib/form-errors';
import { API } from '../../../api/paths';
import { useFormLayout } from '../../../hooks/breakpoint';
import { useGlobalLocale, usePageLocale } from '../../../locale';
import locale from './locale';

type Key = keyof (typeof locale)['zh-CN'];
type T = (key: Key, vars?: Record<string, string | number>) => string;
type Tab = keyof typeof SYS_CONFIG_TABS | 'all';

const PREFIX = `${API}/sys/config`;
const DETAIL_KEY = ['/sys/config', 'detail'] as const;
const TABS: Tab[] = ['all', 'global', 'general', 'task', 'api', 'digital_human', 'security'];
const UNITS: Record<string, Key> = {
  session_expire: 'cfg.seconds',
  short_timeout: 'cfg.seconds',
  long_timeout: 'cfg.seconds',
  breaker_cooldown: 'cfg.seconds',
  breaker_error_rate: 'cfg.percent',
  chat_reserve: 'cfg.days',
  audit_reserve: 'cfg.days',
  response_reserve: 'cfg.days',
  lock_minutes: 'cfg.minutes',
  task_timeout: 'cfg.minutes',
  upload_max_mb: 'cfg.mb',
  timeout: 'cfg.seconds',
  expired_threshold: 'cfg.days',
  expired_clear_defer: 'cfg.minutes',
};
const HELP = new Set(['session_expire', 'err_retry', 'short_timeout', 'long_timeout', 'breaker_error_rate', 'breaker_min_calls', 'breaker_cooldown', 'chat_reserve', 'audit_reserve', 'response_reserve', 'limit', 'lock_minutes', 'errors', 'task_timeout', 'cron', 'reserved_hosts', 'upload_max_files', 'upload_max_mb', 'required', 'secret_key_prefix', 'error_prefix', 'timeout', 'proxy_url', 'threshold', 'expired_threshold', 'expired_clear', 'ip_whitelist', 'message']);
const RECORDS = ['prompt', 'completion', 'messages', 'image', 'audio'] as const;
/** Text lists edited one item per line. */
const LINES = ['errors', 'reserved_hosts', 'ip_whitelist'];

type FormValues = Record<string, unknown>;

/** Section → form values: text lists become one item per line. */
function toForm(value: Record<string, unknown>): FormValues {
  const out: FormValues = { ...value };
  for (const name of LINES) if (Array.isArray(value[name])) out[name] = (value[name] as string[]).join('\n');
  if ('password' in value) out.password = '';
  delete out.password_set;
  delete out.open;
  return out;
}

function toBody(values: FormValues, open: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = { ...values };
  for (const name of LINES) {
    const text = values[name];
    if (typeof text === 'string')
      out[name] = text
        .split('\n')
        .map((s) => s.trim())
        .filter(Boolean);
  }
  if (open !== undefined) out.open = open;
  return out;
}

function Field({ section, name, sample, t, passwordSet }: { section: SysConfigSection; name: string; sample: unknown; t: T; passwordSet: boolean }) {
  const { g } = useGlobalLocale();
  const label = t(`cfg.field.${name}` as Key);
  const testId = `cfg-${section}-${name}`;
  const extra =
    name === 'password'
      ? t(passwordSet ? 'cfg.help.password.set' : 'cfg.help.password')
      : HELP.has(name)
        ? t(`cfg.help.${name}` as Key)
        : section === 'sign_in_limits'
          ? t('cfg.help.sign_in_limits')
          : undefined;
  if (LINES.includes(name)) {
    return (
      <Form.Item label={label} field={name} extra={extra}>
        <Input.TextArea autoSize={{ minRows: 4, maxRows: 14 }} data-testid={testId} />
      </Form.Item>
    );
  }
  if (name === 'chat_records') {
    return (
      <Form.Item label={label} field="chat_records">
        <Checkbox.Group options={RECORDS.map((r) => ({ label: t(`cfg.records.${r}`), value: r }))} />
      </Form.Item>
    );
  }
  if (name === 'enable_errors') {
    return (
      <Form.Item label={label}>
        <Form.List field="enable_errors">
          {(items, { add, remove }) => (
            <Space direction="vertical" style={{ width: '100%' }}>
              {items.map((item, index) => (
                <Space key={item.key} wrap align="start">
                  <Form.Item field={`${item.field}.cron`} noStyle rules={[{ required: true, message: t('cfg.field.cron') }]}>
                    <Input placeholder={t('cfg.help.cron')} style={{ width: 180 }} />
                  </Form.Item>
                  <Form.Item field={`${item.field}.enable_time`} noStyle>
                    <InputNumber min={0} precision={0} prefix={t('cfg.field.enable_time')} suffix={t('cfg.seconds')} style={{ width: 200 }} />
                  </Form.Item>
                  <Form.Item field={`${item.field}.error`} noStyle>
                    <Input placeholder={g('common.aside', { text: t('cfg.field.error'), aside: t('cfg.help.error') })} style={{ width: 240 }} />
                  </Form.Item>
                  <Button icon={<IconDelete />} status="danger" onClick={() => remove(index)} />
                </Space>
              ))}
              <Button type="dashed" icon={<IconPlus />} onClick={() => add({ cron: '0 0 * * * ?', enable_time: 3600, error: '' })}>
                {t('cfg.add')}
              </Button>
            </Space>
          )}
        </Form.List>
      </Form.Item>
    );
  }
  if (typeof sample === 'boolean') {
    return (
      <Form.Item label={label} field={name} triggerPropName="checked" extra={extra}>
        <Switch data-testid={testId} />
      </Form.Item>
    );
  }
  if (typeof sample === 'number') {
    const unit = UNITS[name];
    return (
      <Form.Item label={label} field={name} extra={extra} rules={[{ required: true, type: 'number', message: label }]}>
        <InputNumber precision={0} suffix={unit ? t(unit) : undefined} style={{ width: 240 }} data-testid={testId} />
      </Form.Item>
    );
  }
  return (
    <Form.Item label={label} field={name} extra={extra}>
      {name === 'password' ? <Input.Password autoComplete="new-password" style={{ width: 320 }} data-testid={testId} /> : <Input style={{ width: 320 }} data-testid={testId} />}
    </Form.Item>
  );
}

function SectionCard({ section, value, t, onChanged }: { section: SysConfigSection; value: Record<string, unknown>; t: T; onChanged: (section: SysConfigSection) => Promise<void> }) {
  const [form] = Form.useForm<FormValues>();
  const layout = useFormLayout();
  const [busy, setBusy] = useState<'save' | 'reset' | 'open'>();
  const { g: gl } = useGlobalLocale();
  const switchable = 'open' in value && !ORIGINAL_ONLY_FIELDS[section]?.includes('open');
  const title = t(`cfg.section.${section}`);
  // The admin login has no registration.
  // The original console's leftovers (ORIGINAL_ONLY_FIELDS) do nothing here: not shown.
  const fields = Object.keys(sysSectionSchemas[section].shape).filter((k) => k !== 'open' && !(section === 'admin_login' && k === 'email_register') && !ORIGINAL_ONLY_FIELDS[section]?.includes(k));
  const run = async (kind: 'save' | 'reset' | 'open', call: () => Promise<unknown>, done: Key) => {
    setBusy(kind);
    try {
      await call();
      Message.success(t(done));
      await onChanged(section);
    } catch (e) {
      // The HTTP client toasted anything else; a field error of this section goes on its item, with its label.
      const found = e instanceof Error ? fieldErrorOf(e.message) : undefined;
      const name = found?.field.startsWith(`${section}.`) ? found.field.slice(section.length + 1).split('.')[0]! : undefined;
      if (found && name) {
        form.setFields({ [name]: { error: { message: found.detail } } });
        Message.error({ content: gl('common.labelled', { label: t(`cfg.field.${name}` as Key), text: found.detail }), duration: TOAST_MS });
      } else if (found && e instanceof Error) Message.error({ content: e.message, duration: TOAST_MS });
    } finally {
      setBusy(undefined);
    }
  };
  const save = (values: FormValues) =>
    run('save', () => post(`${PREFIX}/update`, { action: section, [section]: toBody(values, undefined) }, { formFieldErrors: true }), 'cfg.saved');
  return (
    <Card
      title={title}
      data-testid={`cfg-card-${section}`}
      extra={
        <Space>
          {switchable && (
            <Switch
              checked={value.open as boolean}
              loading={busy === 'open'}
              checkedText={t('cfg.open')}
              onChange={(open) => void run('open', () => post(`${PREFIX}/change/status`, { action: section, open }), 'cfg.saved')}
              data-testid={`cfg-switch-${section}`}
            />
          )}
          <Popconfirm title={t('cfg.reset.confirm', { section: title })} onOk={() => run('reset', () => post(`${PREFIX}/reset`, { action: section }), 'cfg.resetDone')}>
            <Button size="small" loading={busy === 'reset'} data-testid={`cfg-reset-${section}`}>
              {t('cfg.reset')}
            </Button>
          </Popconfirm>
          <Button size="small" type="primary" loading={busy === 'save'} onClick={() => form.submit()} data-testid={`cfg-save-${section}`}>
            {t('cfg.save')}
          </Button>
        </Space>
      }
    >
      <Form form={form} initialValues={toForm(value)} layout={layout} labelCol={{ span: 6 }} wrapperCol={{ span: 18 }} onSubmit={(v) => void save(v)} scrollToFirstError>
        {fields.map((name) => (
          <Field key={name} section={section} name={name} sample={value[name]} t={t} passwordSet={!!value.password_set} />
        ))}
      </Form>
    </Card>
  );
}

export default function SysConfigPage() {
  const t = usePageLocale(locale);
  const client = useQueryClient();
  const [search, setSearch] = useSearchParams();
  const tab = (TABS.includes(search.get('tab') as Tab) ? search.get('tab') : 'all') as Tab;
  const detail = useQuery({ queryKey: DETAIL_KEY, queryFn: () => get<SysConfigWire>(`${PREFIX}/detail`), staleTime: 0 });
  const [refreshing, setRefreshing] = useState(false);
  // A section whose every field is the original console's leftover (`notice`) has nothing to show.
  const sections = useMemo<readonly SysConfigSection[]>(
    () => (tab === 'all' ? SYS_CONFIG_SECTIONS.filter((s) => Object.keys(sysSectionSchemas[s].shape).some((k) => !ORIGINAL_ONLY_FIELDS[s]?.includes(k))) : SYS_CONFIG_TABS[tab]),
    [tab],
  );

  const onChanged = async (section: SysConfigSection) => {
    await client.invalidateQueries({ queryKey: DETAIL_KEY });
    // The login screens read their options from /open/sys/config.
    if (section.endsWith('login_register') || section === 'admin_login') await client.invalidateQueries({ queryKey: ['open', 'sys', 'config'] });
  };
  const refresh = async () => {
    setRefreshing(true);
    try {
      await post(`${PREFIX}/refresh`, { action: 'refresh_api_cache' });
      Message.success(t('cfg.refreshed'));
    } catch {
      // toasted
    } finally {
      setRefreshing(false);
    }
  };

  return (
    <Card bordered={false} data-testid="sys-config">
      <Tabs
        activeTab={tab}
        onChange={(key) => setSearch((prev) => ({ ...Object.fromEntries(prev), tab: key }), { replace: true })}
        extra={
          <Button icon={<IconRefresh />} loading={refreshing} onClick={() => void refresh()} data-testid="cfg-refresh">
            {t('cfg.refresh')}
          </Button>
        }
      >
        {TABS.map((key) => (
          <Tabs.TabPane key={key} title={<span data-testid={`cfg-tab-${key}`}>{t(`cfg.tab.${key}`)}</span>} />
        ))}
      </Tabs>
      <Spin loading={detail.isLoading} style={{ display: 'block', minHeight: 120 }}>
        {detail.data ? (
          <Space direction="vertical" size={16} style={{ width: '100%' }}>
            {sections.map((section) => {
              const value = detail.data[section] as unknown as Record<string, unknown>;
              // Re-mount when the stored section changes, so the form starts from what was saved.
              return <SectionCard key={`${section}:${JSON.stringify(value)}`} section={section} value={value} t={t} onChanged={onChanged} />;
            })}
          </Space>
        ) : (
          !detail.isLoading && <Empty />
        )}
      </Spin>
    </Card>
  );
}
