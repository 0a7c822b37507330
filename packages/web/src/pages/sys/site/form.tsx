// Site config create and update (docs/ORIGINAL-API.md §3.9, docs/SPEC.md §3.9): one form in sections — identity with image
// uploads and previews, registration, mail server with a test mail, home page lists, other. A site
// waiting for an admin's approval says so at the top (a reseller's new or re-domained site).
import { useState, type ReactNode } from 'react';
import { Alert, Button, Checkbox, Divider, Form, Input, InputNumber, InputTag, Message, Select, Space } from '@arco-design/web-react';
import { IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Status } from '@fastgate/core/constants';
import { HOSTNAME, SITE_CONFIG_PREFIX, SITE_IMAGE_SIZES, SiteApproval, siteConfigResource, siteTestMailSchema, type SiteConfig, type SiteConfigFields } from '@fastgate/core/entities/site-config';
import { ADMIN_ONLY } from '@fastgate/core/routes';
import { post } from '../../../api/http';
import { API } from '../../../api/paths';
import { siteQuery } from '../../../lib/site';
import { usePermission } from '../../../components/Permission';
import { ResourceForm, type FormMode } from '../../../components/ResourceForm';
import { QuotaInput } from '../../../components/QuotaInput';
import { required } from '../../../components/rules';
import { useGlobalLocale, usePageLocale, tm } from '../../../locale';
import { ImageUpload } from './ImageUpload';
import locale from './locale';

/** The form's values: the site config's fields as declared (core entities/site-config.ts). */
type Values = SiteConfigFields;
type T = (key: keyof (typeof locale)['zh-CN'], vars?: Record<string, string | number>) => string;

const hostRule = { validator: (v: string | undefined, cb: (e?: string) => void) => cb(!v || HOSTNAME.test(v.trim().toLowerCase()) ? undefined : tm('site.mail_host')) };
const domainRule = { validator: (v: string | undefined, cb: (e?: string) => void) => cb(!v || HOSTNAME.test(v.trim().toLowerCase()) ? undefined : tm('site.domain')) };

function Section({ title }: { title: ReactNode }) {
  return (
    <Divider orientation="left" style={{ marginTop: 28 }}>
      <b>{title}</b>
    </Divider>
  );
}

/** An editable list of `{…, jump_url}` items (carousels, announcements, documents). */
function LinkList({ field, label, t, first }: { field: 'carousels1' | 'carousels2' | 'announcements' | 'documents'; label: string; t: T; first: 'image_url' | 'content' | 'title' }) {
  return (
    <Form.Item label={label}>
      <Form.List field={field}>
        {(items, { add, remove }) => (
          <Space direction="vertical" style={{ width: '100%' }} data-testid={`site-list-${field}`}>
            {items.map((item, index) => (
              <Space key={item.key} align="start" wrap>
                {first === 'image_url' ? (
                  <Form.Item field={`${item.field}.image_url`} noStyle>
                    <ImageUpload preview={{ width: 96, height: 48 }} />
                  </Form.Item>
                ) : (
                  <Form.Item field={`${item.field}.${first}`} noStyle rules={[required(t(first === 'content' ? 'site.content' : 'site.docTitle'))]}>
                    <Input placeholder={t(first === 'content' ? 'site.content' : 'site.docTitle')} style={{ width: 320 }} maxLength={first === 'content' ? 1000 : 200} />
                  </Form.Item>
                )}
                <Form.Item field={`${item.field}.jump_url`} noStyle>
                  <Input placeholder={t('site.jumpUrl')} style={{ width: 260 }} maxLength={500} />
                </Form.Item>
                <Button icon={<IconDelete />} status="danger" onClick={() => remove(index)} aria-label={t('site.remove')} />
              </Space>
            ))}
            <Button type="dashed" icon={<IconPlus />} onClick={() => add(first === 'image_url' ? { image_url: '', jump_url: '' } : { [first]: '', jump_url: '' })} data-testid={`site-add-${field}`}>
              {t('site.add')}
            </Button>
          </Space>
        )}
      </Form.List>
    </Form.Item>
  );
}

function TestMail({ t }: { t: T }) {
  const [search] = useSearchParams();
  const id = search.get('id');
  const [to, setTo] = useState('');
  const [busy, setBusy] = useState(false);
  const valid = siteTestMailSchema.shape.to.safeParse(to).success;
  const send = async () => {
    setBusy(true);
    try {
      await post(`${API}${SITE_CONFIG_PREFIX}/test/mail`, { id, to });
      Message.success(t('site.testMail.sent'));
    } catch {
      // toasted by the HTTP client
    } finally {
      setBusy(false);
    }
  };
  if (!id) return null;
  return (
    <Form.Item label={t('site.testMail')} extra={t('site.testMail.extra')}>
      <Space wrap>
        <Input value={to} onChange={setTo} placeholder={t('site.testMail.to')} style={{ width: 260 }} data-testid="site-test-mail-to" />
        <Button onClick={() => void send()} loading={busy} disabled={!valid} data-testid="site-test-mail">
          {t('site.testMail')}
        </Button>
      </Space>
    </Form.Item>
  );
}

function SiteConfigForm({ mode }: { mode: FormMode }) {
  const t = usePageLocale(locale);
  const { g, tk } = useGlobalLocale();
  const client = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [passwordSet, setPasswordSet] = useState(false);
  const [pending, setPending] = useState(false);
  const isAdmin = usePermission(ADMIN_ONLY);
  const size = (key: keyof typeof SITE_IMAGE_SIZES) => t('site.size', { size: SITE_IMAGE_SIZES[key] });
  return (
    <ResourceForm<SiteConfig, Values>
      prefix={SITE_CONFIG_PREFIX}
      mode={mode}
      form={form}
      listRoute="sys.site.config"
      title={tk(`menu.sys.site.${mode}`)}
      initialValues={siteConfigResource.defaults()}
      toValues={(row) => {
        setPasswordSet(row.password_set);
        setPending(row.approved === SiteApproval.Pending);
        return { ...siteConfigResource.pick(row), password: '' };
      }}
      toBody={(v) => ({ ...v, clear_password: !!v.clear_password && !v.password })}
      // The console's own identity comes from /open/site/config: reload it after a save.
      onSaved={(_r, _m, back) => {
        void client.invalidateQueries({ queryKey: siteQuery.queryKey.slice(0, 2) });
        back();
      }}
    >
      {mode === 'update' && pending && <Alert type="warning" content={t('site.approval.pendingAlert')} data-testid="site-pending-alert" />}
      <Section title={t('site.section.identity')} />
      <Form.Item label={t('site.domain')} field="domain" rules={[required(t('site.domain.required')), domainRule]} extra={t(isAdmin ? 'site.domain.extra' : 'site.domain.extraReseller')}>
        <Input maxLength={253} placeholder="api.example.com" data-testid="site-domain" />
      </Form.Item>
      <Form.Item label={t('site.title')} field="title">
        <Input maxLength={100} data-testid="site-form-title" />
      </Form.Item>
      <Form.Item label={t('site.logo')} field="logo" extra={size('logo')}>
        <ImageUpload testId="site-logo" />
      </Form.Item>
      <Form.Item label={t('site.favicon')} field="favicon" extra={size('favicon')}>
        <ImageUpload preview={{ width: 32, height: 32 }} testId="site-favicon" />
      </Form.Item>
      <Form.Item label={t('site.avatar')} field="avatar" extra={size('avatar')}>
        <ImageUpload testId="site-avatar" />
      </Form.Item>
      <Form.Item label={t('site.bgImg')} field="bg_img" extra={size('bg_img')}>
        <ImageUpload preview={{ width: 128, height: 72 }} testId="site-bg" />
      </Form.Item>
      <Form.Item label={t('site.copyright')} field="copyright">
        <Input maxLength={500} />
      </Form.Item>
      <Form.Item label={t('site.jumpUrl')} field="jump_url">
        <Input maxLength={500} />
      </Form.Item>
      <Form.Item label={t('site.keywords')} field="keywords">
        <Input maxLength={500} />
      </Form.Item>
      <Form.Item label={t('site.description')} field="description">
        <Input.TextArea maxLength={1000} autoSize={{ minRows: 2, maxRows: 5 }} />
      </Form.Item>
      <Form.Item label={t('site.icpBeian')} field="icp_beian">
        <Input maxLength={100} />
      </Form.Item>
      <Form.Item label={t('site.gaBeian')} field="ga_beian">
        <Input maxLength={100} />
      </Form.Item>

      <Section title={t('site.section.register')} />
      <Form.Item label={t('site.registerTips')} field="register_tips" extra={t('site.registerTips.extra')}>
        <Input.TextArea maxLength={500} autoSize={{ minRows: 2, maxRows: 4 }} data-testid="site-register-tips" />
      </Form.Item>
      <Form.Item label={t('site.grantQuota')} field="grant_quota">
        <QuotaInput data-testid="site-grant-quota" />
      </Form.Item>
      <Form.Item label={t('site.quotaExpiresAt')} field="quota_expires_at" extra={t('site.quotaExpiresAt.extra')}>
        <InputNumber min={0} precision={0} suffix={t('site.minutes')} style={{ width: 220 }} />
      </Form.Item>
      <Form.Item label={t('site.emailSuffix')} field="support_email_suffix" extra={t('site.emailSuffix.extra')}>
        <InputTag allowClear saveOnBlur placeholder="@example.com" />
      </Form.Item>
      <Form.Item label={t('site.registerWelcome')} field="register_welcome">
        <Input.TextArea maxLength={2000} autoSize={{ minRows: 2, maxRows: 5 }} />
      </Form.Item>

      <Section title={t('site.section.mail')} />
      <Form.Item label={t('site.host')} field="host" rules={[hostRule]} extra={t('site.mail.extra')}>
        <Input maxLength={253} placeholder="smtp.example.com" data-testid="site-mail-host" />
      </Form.Item>
      <Form.Item label={t('site.port')} field="port" extra={t('site.port.extra')}>
        <InputNumber min={0} max={65535} precision={0} style={{ width: 160 }} data-testid="site-mail-port" />
      </Form.Item>
      <Form.Item label={t('site.userName')} field="user_name">
        <Input maxLength={200} autoComplete="off" />
      </Form.Item>
      <Form.Item label={t('site.password')} field="password">
        <Input.Password maxLength={200} autoComplete="new-password" placeholder={passwordSet ? t('site.password.set') : undefined} data-testid="site-mail-password" />
      </Form.Item>
      {passwordSet && (
        <Form.Item label=" " field="clear_password" triggerPropName="checked">
          <Checkbox>{t('site.password.clear')}</Checkbox>
        </Form.Item>
      )}
      <Form.Item label={t('site.fromName')} field="from_name">
        <Input maxLength={100} />
      </Form.Item>
      {mode === 'update' && <TestMail t={t} />}

      <Section title={t('site.section.home')} />
      <Form.Item label={t('site.carousel1Title')} field="carousel1_title">
        <Input maxLength={100} />
      </Form.Item>
      <LinkList field="carousels1" label={t('site.carousels1')} t={t} first="image_url" />
      <Form.Item label={t('site.carousel2Title')} field="carousel2_title">
        <Input maxLength={100} />
      </Form.Item>
      <LinkList field="carousels2" label={t('site.carousels2')} t={t} first="image_url" />
      <Form.Item label={t('site.announcementTitle')} field="announcement_title">
        <Input maxLength={100} />
      </Form.Item>
      <Form.Item label={t('site.announcementMoreUrl')} field="announcement_more_url">
        <Input maxLength={500} />
      </Form.Item>
      <LinkList field="announcements" label={t('site.announcements')} t={t} first="content" />
      <Form.Item label={t('site.documentTitle')} field="document_title">
        <Input maxLength={100} />
      </Form.Item>
      <Form.Item label={t('site.documentMoreUrl')} field="document_more_url">
        <Input maxLength={500} />
      </Form.Item>
      <LinkList field="documents" label={t('site.documents')} t={t} first="title" />

      <Section title={t('site.section.other')} />
      <Form.Item label={t('site.rechargeTips')} field="recharge_tips">
        <Input.TextArea maxLength={2000} autoSize={{ minRows: 2, maxRows: 5 }} />
      </Form.Item>
      <Form.Item label={t('site.status')} field="status">
        <Select style={{ width: 220 }}>
          <Select.Option value={Status.Normal}>{g('resource.status.1')}</Select.Option>
          <Select.Option value={Status.Disabled}>{g('resource.status.2')}</Select.Option>
        </Select>
      </Form.Item>
      <Form.Item label={t('site.remark')} field="remark">
        <Input.TextArea maxLength={500} showWordLimit autoSize={{ minRows: 2, maxRows: 5 }} />
      </Form.Item>
    </ResourceForm>
  );
}

export const CreateSiteConfig = () => <SiteConfigForm mode="create" />;
export const UpdateSiteConfig = () => <SiteConfigForm mode="update" />;
