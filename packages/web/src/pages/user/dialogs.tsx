// The row dialogs of the user and reseller lists: recharge (recharge / deduct / gift with a new
// expiry), permissions (granted groups and models), delete with the purge choices (docs/ORIGINAL-API.md §3.1) and
// the reset of a lost two-factor authenticator.
import { useEffect, useState } from 'react';
import { Alert, Checkbox, DatePicker, Form, Message, Modal, Radio, Switch, Typography } from '@arco-design/web-react';
import { GROUP_PREFIX } from '@fastgate/core/entities/group';
import { PurgeData, QuotaType, type ManagedUser } from '@fastgate/core/entities/user';
import { RESELLER_ONLY } from '@fastgate/core/routes';
import { usePermission } from '../../components/Permission';
import { QuotaInput } from '../../components/QuotaInput';
import { ModelSelect } from '../../components/ModelSelect';
import { ResourceSelect } from '../../components/ResourceSelect';
import { required } from '../../components/rules';
import { useResourceMutation } from '../../hooks/resource';
import { useGlobalLocale } from '../../locale';
import type { Kind, T } from './columns';
import { useFormLayout } from '../../hooks/breakpoint';

const ALL = ['/admin/reseller', '/admin/user'] as const;
/** A write on `<prefix>/<verb>` (the hook wants `a/b` verbs: `/admin` + `user/recharge`). */
function useVerb(prefix: string, verb: string) {
  const cut = prefix.lastIndexOf('/');
  return useResourceMutation(prefix.slice(0, cut), `${prefix.slice(cut + 1)}/${verb}`, ALL);
}

interface DialogProps {
  prefix: string;
  row?: ManagedUser;
  onClose: () => void;
  t: T;
}

interface RechargeValues {
  quota: number;
  quota_type: number;
  quota_expires_at?: string;
  is_send_notice?: boolean;
}

export function RechargeDialog({ prefix, row, onClose, t }: DialogProps) {
  const formLayout = useFormLayout();
  const { g } = useGlobalLocale();
  const [form] = Form.useForm<RechargeValues>();
  const recharge = useVerb(prefix, 'recharge');
  const reseller = usePermission(RESELLER_ONLY);
  useEffect(() => {
    if (row) form.setFieldsValue({ quota: undefined, quota_type: QuotaType.Recharge, quota_expires_at: undefined, is_send_notice: false });
  }, [row, form]);
  const ok = async () => {
    const v = await form.validate();
    await recharge.mutateAsync({ user_id: row!.user_id, quota: v.quota, quota_type: v.quota_type, quota_expires_at: v.quota_expires_at || undefined, is_send_notice: !!v.is_send_notice });
    Message.success(g('common.success'));
    onClose();
  };
  return (
    <Modal title={row ? t('user.recharge.title', { name: row.name }) : ''} visible={!!row} onOk={ok} onCancel={onClose} confirmLoading={recharge.isPending} unmountOnExit data-testid="recharge-dialog">
      {reseller && <Alert type="info" content={t('user.recharge.resellerHint')} style={{ marginBottom: 16 }} />}
      <Form form={form} layout={formLayout} labelCol={{ span: 6 }} wrapperCol={{ span: 18 }}>
        <Form.Item label={t('user.quotaType')} field="quota_type" rules={[required(t('user.quotaType.required'))]}>
          <Radio.Group type="button" data-testid="recharge-type">
            {[QuotaType.Recharge, QuotaType.Deduct, QuotaType.Gift].map((type) => (
              <Radio key={type} value={type}>
                {t(`deal.type.${type}`)}
              </Radio>
            ))}
          </Radio.Group>
        </Form.Item>
        <Form.Item label={t('user.recharge.amount')} field="quota" rules={[required(t('user.quota.required')), { type: 'number', min: 1, message: t('user.quota.required') }]}>
          <QuotaInput min={1} data-testid="recharge-quota" />
        </Form.Item>
        <Form.Item label={t('user.recharge.expires')} field="quota_expires_at" extra={t('user.recharge.expires.extra')}>
          <DatePicker showTime format="YYYY-MM-DD HH:mm:ss" style={{ width: 240 }} data-testid="recharge-expires" />
        </Form.Item>
        <Form.Item label={t('user.recharge.notice')} field="is_send_notice" triggerPropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export function PermissionsDialog({ prefix, row, onClose, t }: DialogProps) {
  const formLayout = useFormLayout();
  const { g } = useGlobalLocale();
  const [form] = Form.useForm<{ groups: string[]; models: string[] }>();
  const save = useVerb(prefix, 'permissions');
  useEffect(() => {
    if (row) form.setFieldsValue({ groups: row.groups, models: row.models });
  }, [row, form]);
  const ok = async () => {
    const v = await form.validate();
    await save.mutateAsync({ user_id: row!.user_id, groups: v.groups ?? [], models: v.models ?? [] });
    Message.success(g('common.success'));
    onClose();
  };
  return (
    <Modal title={row ? t('user.permissions.title', { name: row.name }) : ''} visible={!!row} onOk={ok} onCancel={onClose} confirmLoading={save.isPending} unmountOnExit style={{ width: 640 }} data-testid="permissions-dialog">
      <Form form={form} layout={formLayout} labelCol={{ span: 5 }} wrapperCol={{ span: 19 }}>
        <Form.Item label={t('user.groups')} field="groups">
          <ResourceSelect<{ id: string; name: string }> prefix={GROUP_PREFIX} mode="multiple" labelOf={(gr) => gr.name} data-testid="permissions-groups" />
        </Form.Item>
        <Form.Item label={t('user.models')} field="models">
          <ModelSelect data-testid="permissions-models" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export function DeleteDialog({ prefix, row, onClose, t, kind }: DialogProps & { kind: Kind }) {
  const { g } = useGlobalLocale();
  const [data, setData] = useState<number[]>([]);
  const remove = useVerb(prefix, 'delete');
  const choices = [...(kind === 'reseller' ? [PurgeData.Users] : []), PurgeData.Apps, PurgeData.DealRecords, PurgeData.Bills, PurgeData.Logs];
  const ok = async () => {
    await remove.mutateAsync({ id: row!.id, data });
    Message.success(g('resource.deleted'));
    setData([]);
    onClose();
  };
  return (
    <Modal title={row ? t('user.delete.title', { name: row.name }) : ''} visible={!!row} onOk={ok} onCancel={onClose} confirmLoading={remove.isPending} okButtonProps={{ status: 'danger' }} unmountOnExit data-testid="delete-dialog">
      <Typography.Paragraph>{t('user.delete.content')}</Typography.Paragraph>
      <Checkbox.Group value={data} onChange={(v) => setData(v as number[])} direction="vertical">
        {choices.map((c) => (
          <Checkbox key={c} value={c} data-testid={`purge-${c}`}>
            {t(`user.purge.${c}` as 'user.purge.1')}
          </Checkbox>
        ))}
      </Checkbox.Group>
    </Modal>
  );
}

/** Two-factor off for an account that lost its authenticator and recovery codes; its sessions end. */
export function TwoFactorResetDialog({ prefix, row, onClose, t }: DialogProps) {
  const { g } = useGlobalLocale();
  const reset = useVerb(prefix, 'two-factor/reset');
  const ok = async () => {
    await reset.mutateAsync({ id: row!.id });
    Message.success(g('common.success'));
    onClose();
  };
  return (
    <Modal title={row ? t('user.twoFactorReset.title', { name: row.name }) : ''} visible={!!row} onOk={ok} onCancel={onClose} confirmLoading={reset.isPending} okButtonProps={{ status: 'warning' }} unmountOnExit data-testid="two-factor-reset-dialog">
      <Typography.Paragraph>{t('user.twoFactorReset.content')}</Typography.Paragraph>
    </Modal>
  );
}
