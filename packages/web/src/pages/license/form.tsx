// License create and update (admin). Saving signs the license (server side, Ed25519) and stores its
// secret key; the nodes are edited as rows.
import { Alert, Button, DatePicker, Form, Input, InputNumber, Select, Space, Switch } from '@arco-design/web-react';
import { IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { Status } from '@fastgate/core/constants';
import { LICENSE_PREFIX, LicenseType, type License } from '@fastgate/core/entities/license';
import { emailField } from '@fastgate/core/schemas/fields';
import { ResourceForm, type FormMode } from '../../components/ResourceForm';
import { required, zodRule } from '../../components/rules';
import { useGlobalLocale, usePageLocale } from '../../locale';
import locale from './locale';
import { licenseInitialValues, licenseToBody, licenseToValues, type LicenseValues } from './values';

function LicenseForm({ mode }: { mode: FormMode }) {
  const t = usePageLocale(locale);
  const { g, tk } = useGlobalLocale();
  const count = (field: 'node' | 'user_count' | 'app_count', label: string) => (
    <Form.Item label={label} field={field} extra={t('license.unlimited')}>
      <InputNumber min={0} max={100_000_000} precision={0} placeholder="0" style={{ width: 220 }} data-testid={`license-${field}`} />
    </Form.Item>
  );
  return (
    <ResourceForm<License, LicenseValues>
      prefix={LICENSE_PREFIX}
      mode={mode}
      listRoute="license.list"
      title={tk(`menu.license.${mode}`)}
      initialValues={licenseInitialValues}
      toValues={licenseToValues}
      toBody={licenseToBody}
    >
      <Alert type="info" content={t('license.signed')} style={{ marginBottom: 16 }} />
      <Form.Item label={t('license.name')} field="name" rules={[required(t('license.name.required')), { maxLength: 100 }]}>
        <Input maxLength={100} showWordLimit data-testid="license-name" />
      </Form.Item>
      <Form.Item label={t('license.email')} field="email" rules={[zodRule(emailField)]}>
        <Input maxLength={100} data-testid="license-email" />
      </Form.Item>
      <Form.Item label={t('license.phone')} field="phone">
        <Input maxLength={32} data-testid="license-phone" />
      </Form.Item>
      <Form.Item label={t('license.type')} field="type">
        <Select style={{ width: 220 }} data-testid="license-type">
          <Select.Option value={LicenseType.Trial}>{t('license.type.1')}</Select.Option>
          <Select.Option value={LicenseType.Commercial}>{t('license.type.2')}</Select.Option>
        </Select>
      </Form.Item>
      {count('user_count', t('license.userCount'))}
      {count('app_count', t('license.appCount'))}
      {count('node', t('license.node'))}
      <Form.Item label={t('license.expiresAt')} field="expires_at" normalize={(v: string | undefined) => v ?? ''}>
        <DatePicker showTime format="YYYY-MM-DD HH:mm:ss" placeholder={t('license.never')} style={{ width: 260 }} data-testid="license-expires-at" />
      </Form.Item>
      <Form.Item label={t('license.isNodeVisible')} field="is_node_visible" triggerPropName="checked">
        <Switch data-testid="license-node-visible" />
      </Form.Item>
      <Form.List field="nodes">
        {(fields, { add, remove }) => (
          <Form.Item label={t('license.nodes')}>
            <Space direction="vertical" size={8}>
              {fields.map((item, index) => (
                <Space key={item.key}>
                  <Form.Item field={`${item.field}.ip`} noStyle>
                    <Input placeholder={t('license.node.ip')} style={{ width: 150 }} maxLength={64} />
                  </Form.Item>
                  <Form.Item field={`${item.field}.mac`} noStyle>
                    <Input placeholder={t('license.node.mac')} style={{ width: 170 }} maxLength={64} />
                  </Form.Item>
                  <Form.Item field={`${item.field}.node_id`} noStyle>
                    <Input placeholder={t('license.node.id')} style={{ width: 200 }} maxLength={128} />
                  </Form.Item>
                  <Button icon={<IconDelete />} status="danger" onClick={() => remove(index)} />
                </Space>
              ))}
              <Button icon={<IconPlus />} onClick={() => add({})} data-testid="license-node-add">
                {t('license.nodes.add')}
              </Button>
            </Space>
          </Form.Item>
        )}
      </Form.List>
      <Form.Item label={t('license.status')} field="status">
        <Select style={{ width: 220 }}>
          <Select.Option value={Status.Normal}>{g('resource.status.1')}</Select.Option>
          <Select.Option value={Status.Disabled}>{g('resource.status.2')}</Select.Option>
        </Select>
      </Form.Item>
      <Form.Item label={t('license.remark')} field="remark" rules={[{ maxLength: 500 }]}>
        <Input.TextArea maxLength={500} showWordLimit autoSize={{ minRows: 2, maxRows: 6 }} />
      </Form.Item>
    </ResourceForm>
  );
}

export const CreateLicense = () => <LicenseForm mode="create" />;
export const UpdateLicense = () => <LicenseForm mode="update" />;
