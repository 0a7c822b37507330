// Admin: delete the logs of a request-time range, optionally of one user and some results
// (`batch/operate` action `time`, docs/ORIGINAL-API.md §1.6). The server deletes in the background.
import { useState } from 'react';
import { Alert, Checkbox, Form, Message, Modal } from '@arco-design/web-react';
import { LOG_STATUSES, type LogKind } from '@fastgate/core/entities/call-log';
import { DateRange } from '../../components/DateRange';
import { required } from '../../components/rules';
import { usePageLocale } from '../../locale';
import { logApi } from './api';
import { statusText } from './columns';
import locale from './locale';
import { AccountSelect } from '../../components/UserSelect';
import { useFormLayout } from '../../hooks/breakpoint';

interface Values {
  value: string[];
  user_id?: number;
  status?: (typeof LOG_STATUSES)[number][];
}

export function DeleteByTime({ kind, visible, onClose, onDone }: { kind: LogKind; visible: boolean; onClose: () => void; onDone: () => void }) {
  const formLayout = useFormLayout();
  const t = usePageLocale(locale);
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    let v: Values;
    try {
      v = await form.validate();
    } catch {
      return;
    }
    setBusy(true);
    try {
      await logApi(kind).batch({ action: 'time', value: v.value, user_id: v.user_id, status: v.status?.length ? v.status : undefined });
      Message.success(t('log.deleteByTime.started'));
      onDone();
      onClose();
    } catch {
      // Shown by the HTTP client.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      visible={visible}
      title={t('log.deleteByTime.title')}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={busy}
      unmountOnExit
      style={{ width: 620 }}
      okButtonProps={{ status: 'danger', 'data-testid': 'delete-by-time-submit' } as Record<string, string>}
    >
      <Alert type="warning" content={t('log.deleteByTime.confirm')} style={{ marginBottom: 16 }} />
      <Form<Values> form={form} layout={formLayout} labelCol={{ span: 5 }} wrapperCol={{ span: 19 }} data-testid="delete-by-time">
        <Form.Item label={t('log.deleteByTime.range')} field="value" rules={[required(t('log.deleteByTime.range.required'))]}>
          <DateRange showTime data-testid="delete-by-time-range" />
        </Form.Item>
        <Form.Item label={t('log.deleteByTime.userId')} field="user_id" extra={t('log.deleteByTime.userId.extra')}>
          <AccountSelect style={{ width: 320, maxWidth: '100%' }} data-testid="delete-by-time-user" />
        </Form.Item>
        <Form.Item label={t('log.deleteByTime.statuses')} field="status" extra={t('log.deleteByTime.statuses.extra')}>
          <Checkbox.Group options={LOG_STATUSES.map((s) => ({ value: s, label: statusText(t, s) }))} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
