import { useState } from 'react';
import { Button, Form, Input, Message } from '@arco-design/web-react';
import { nameField, profileField } from '@fastgate/core/schemas/fields';
import { userApi } from '../../../api/user';
import { loadUserInfo } from '../../../shell/session';
import { required, zodRule } from '../../../components/rules';
import { useGlobalLocale, usePageLocale } from '../../../locale';
import { useUserStore } from '../../../stores/user';
import locale from './locale';
import styles from './center.module.css';
import { useFormLayout } from '../../../hooks/breakpoint';

interface Values {
  name: string;
  profile?: string;
}

export function BasicInfo() {
  const formLayout = useFormLayout();
  const t = usePageLocale(locale);
  const { g } = useGlobalLocale();
  const info = useUserStore((s) => s.info);
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);

  const submit = async (values: Values) => {
    setSaving(true);
    try {
      await userApi.updateInfo({ name: values.name.trim(), profile: values.profile ?? '' });
      await loadUserInfo();
      Message.success(t('center.saved'));
    } catch {
      // Shown by the HTTP client.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form
      form={form}
      className={styles.form}
      layout={formLayout}
      labelCol={{ span: 5 }}
      wrapperCol={{ span: 19 }}
      initialValues={{ name: info?.name ?? '', profile: info?.profile ?? '' }}
      onSubmit={(values) => void submit(values)}
      data-testid="basic-form"
    >
      <Form.Item label={t('center.name')} field="name" rules={[required(t('center.name.required')), zodRule(nameField)]}>
        <Input maxLength={30} data-testid="basic-name" />
      </Form.Item>
      <Form.Item label={t('center.profile')} field="profile" rules={[zodRule(profileField)]}>
        <Input.TextArea
          maxLength={200}
          showWordLimit
          autoSize={{ minRows: 3, maxRows: 6 }}
          placeholder={t('center.profile.placeholder')}
          data-testid="basic-profile"
        />
      </Form.Item>
      <Form.Item label={t('center.email')}>
        <span data-testid="basic-email">{info?.email || t('center.unbound')}</span>
      </Form.Item>
      <Form.Item label={t('center.phone')}>
        <span data-testid="basic-phone">{info?.phone || t('center.unbound')}</span>
      </Form.Item>
      <Form.Item wrapperCol={{ offset: 5 }}>
        <Button type="primary" htmlType="submit" loading={saving} data-testid="basic-save">
          {g('common.save')}
        </Button>
      </Form.Item>
    </Form>
  );
}
