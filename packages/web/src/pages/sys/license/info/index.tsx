// License info (docs/SPEC.md §2.2, admin): the installed license, its limits beside the current use, and the
// install form. Reachable while the console answers code 9, so an admin can always fix the license.
import { useState } from 'react';
import { Alert, Button, Card, Descriptions, Form, Input, Message, Progress, Space, Spin, Table, Tag } from '@arco-design/web-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { LICENSE_INFO_PATH, LICENSE_INSTALL_PATH, type LicenseInfo, type LicenseState } from '@fastgate/core/entities/license';
import { get, post } from '../../../../api/http';
import { API } from '../../../../api/paths';
import { usePageLocale } from '../../../../locale';
import locale from './locale';
import { detailColumns } from '../../../../lib/layout';

const STATE_COLOR: Record<LicenseState, string> = { none: 'gray', valid: 'green', expired: 'red', invalid: 'red', exceeded: 'orangered' };

export default function LicenseInfoPage() {
  const t = usePageLocale(locale);
  const client = useQueryClient();
  const q = useQuery({ queryKey: [LICENSE_INFO_PATH], queryFn: () => get<LicenseInfo>(`${API}${LICENSE_INFO_PATH}`) });
  const [form] = Form.useForm<{ secret_key: string }>();
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const info = q.data;
  if (q.isLoading || !info) return <Spin style={{ display: 'block', margin: '80px auto' }} />;
  const lic = info.license;

  const install = async ({ secret_key }: { secret_key: string }) => {
    setError(undefined);
    setSaving(true);
    try {
      await post(`${API}${LICENSE_INSTALL_PATH}`, { secret_key });
      Message.success(t('info.installed.ok'));
      form.resetFields();
      await client.invalidateQueries();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setSaving(false);
    }
  };

  const usage = (label: string, used: number, max: number | undefined, testId: string) => (
    <div data-testid={testId}>
      <div>
        {label}: <b>{used}</b> / {max ? max : t('info.unlimited')}
      </div>
      {max ? <Progress percent={Math.min(100, Math.round((used / max) * 100))} status={used > max ? 'error' : 'normal'} style={{ maxWidth: 300 }} /> : null}
    </div>
  );

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="license-info">
      <Card title={t('info.installed')} bordered={false}>
        <Space direction="vertical" size={12} style={{ width: '100%' }}>
          <div>
            {t('info.state')}:{' '}
            <Tag color={STATE_COLOR[info.state]} data-testid="license-state">
              {t(`info.state.${info.state}`)}
            </Tag>
          </div>
          {info.state === 'none' && <Alert type="info" content={t('info.none')} data-testid="license-none" />}
          {info.state !== 'none' && info.state !== 'valid' && <Alert type="error" content={t('info.blocked')} />}
          {lic && (
            <Descriptions
              column={detailColumns(2)}
              data={[
                { label: t('info.name'), value: lic.name },
                { label: t('info.type'), value: t(lic.type === 1 ? 'info.type.1' : 'info.type.2') },
                { label: t('info.email'), value: lic.email || '-' },
                { label: t('info.phone'), value: lic.phone || '-' },
                { label: t('info.expiresAt'), value: lic.expires_at || t('info.never') },
                { label: t('info.installedAt'), value: info.installed_at },
              ]}
            />
          )}
        </Space>
      </Card>
      <Card title={t('info.usage')} bordered={false}>
        <Space size={48} wrap>
          {usage(t('info.users'), info.usage.users, lic?.user_count, 'license-usage-users')}
          {usage(t('info.apps'), info.usage.apps, lic?.app_count, 'license-usage-apps')}
          {usage(t('info.nodes'), info.usage.nodes, lic?.node, 'license-usage-nodes')}
        </Space>
        {lic && lic.nodes.length > 0 && (
          <Table
            style={{ marginTop: 16 }}
            size="small"
            pagination={false}
            rowKey="node_id"
            data={lic.nodes}
            columns={[
              { title: 'IP', dataIndex: 'ip' },
              { title: 'MAC', dataIndex: 'mac' },
              { title: t('info.nodeList'), dataIndex: 'node_id' },
            ]}
          />
        )}
      </Card>
      <Card title={t('info.install')} bordered={false}>
        <Alert type="warning" showIcon={false} content={t(info.self_issued ? 'info.selfIssued' : 'info.vendor')} style={{ marginBottom: 16 }} />
        {error && <Alert type="error" content={error} style={{ marginBottom: 16 }} data-testid="license-install-error" />}
        <Form form={form} layout="vertical" onSubmit={install}>
          <Form.Item label={t('info.secretKey')} field="secret_key" rules={[{ required: true, message: t('info.secretKey.required') }]}>
            <Input.TextArea autoSize={{ minRows: 4, maxRows: 10 }} placeholder={t('info.secretKey.placeholder')} style={{ fontFamily: 'monospace' }} data-testid="license-secret-key" />
          </Form.Item>
          <Form.Item>
            <Button type="primary" htmlType="submit" loading={saving} data-testid="license-install">
              {t('info.submit')}
            </Button>
          </Form.Item>
        </Form>
      </Card>
    </Space>
  );
}
