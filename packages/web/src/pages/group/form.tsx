// Group create and update (docs/ORIGINAL-API.md §3.8) for admins and resellers. Discount is typed in percent;
// limits and routing sit in their own sections (form-limits.tsx, form-routing.tsx). Model agents are
// admin-only records, so a reseller's form has no agent section.
import { DatePicker, Divider, Form, Input, InputNumber, Select, Switch } from '@arco-design/web-react';
import { Status } from '@fastgate/core/constants';
import { weightField } from '@fastgate/core/entities/catalogue';
import { GROUP_PREFIX, type Group } from '@fastgate/core/entities/group';
import { MODEL_PREFIX } from '@fastgate/core/entities/model';
import { VIP_PREFIX } from '@fastgate/core/entities/vip';
import { ADMIN_ONLY } from '@fastgate/core/routes';
import { usePermission } from '../../components/Permission';
import { ResourceSelect } from '../../components/ResourceSelect';
import { useDiscountFloor } from '../../components/discount-floor';
import { ModelSelect } from '../../components/ModelSelect';
import { ResourceForm, type FormMode } from '../../components/ResourceForm';
import { required, schemaRule } from '../../components/rules';
import { useGlobalLocale, usePageLocale } from '../../locale';
import { LimitsSection } from './form-limits';
import { AgentSection, ForwardSection } from './form-routing';
import locale from './locale';
import { groupInitialValues, groupToBody, groupToValues, type GroupValues } from './values';

const MAX = 100;

function GroupForm({ mode }: { mode: FormMode }) {
  const t = usePageLocale(locale);
  const { g, tk } = useGlobalLocale();
  const admin = usePermission(ADMIN_ONLY);
  const floor = useDiscountFloor();
  return (
    <ResourceForm<Group, GroupValues>
      prefix={GROUP_PREFIX}
      mode={mode}
      listRoute="group.list"
      title={tk(`menu.group.${mode}`)}
      labelSpan={5}
      alsoInvalidate={[MODEL_PREFIX]}
      initialValues={groupInitialValues}
      toValues={groupToValues}
      toBody={(v) => groupToBody(v, admin)}
    >
      <Divider orientation="left">{t('group.basic')}</Divider>
      <Form.Item label={t('group.name')} field="name" rules={[required(t('group.name.required')), { maxLength: MAX, message: t('group.max100') }]}>
        <Input maxLength={MAX} showWordLimit data-testid="group-name" />
      </Form.Item>
      <Form.Item
        label={t('group.discount')}
        field="discount"
        rules={[{ required: true, type: 'number', min: 0, max: 100, message: t('group.discount.required') }, floor.rule]}
        extra={
          <>
            {t('group.discount.extra')}
            {floor.hint && <div data-testid="discount-floor-hint">{floor.hint}</div>}
          </>
        }
      >
        <InputNumber min={0} max={100} precision={2} suffix="%" style={{ width: 220 }} data-testid="group-discount" />
      </Form.Item>
      <Form.Item label={t('group.models')} field="models" extra={t('group.models.extra')}>
        <ModelSelect data-testid="group-models" />
      </Form.Item>
      <Form.Item label={t('group.isDefault')} field="is_default" triggerPropName="checked" extra={t('group.isDefault.extra')}>
        <Switch data-testid="group-default" />
      </Form.Item>
      <Form.Item label={t('group.isPublic')} field="is_public" triggerPropName="checked" extra={t('group.isPublic.extra')}>
        <Switch data-testid="group-public" />
      </Form.Item>
      {/* No min/max on the input: out of range is shown, not silently clamped. */}
      <Form.Item label={t('group.weight')} field="weight" rules={[required(t('group.weight.range')), schemaRule(weightField, t('group.weight.range'))]} extra={t('group.weight.extra')}>
        <InputNumber precision={0} style={{ width: 220 }} data-testid="group-weight" />
      </Form.Item>
      <Form.Item label={t('group.expiresAt')} field="expires_at" normalize={(v: string | undefined) => v ?? ''}>
        <DatePicker showTime format="YYYY-MM-DD HH:mm:ss" placeholder={t('group.expiresAt.placeholder')} style={{ width: 260 }} data-testid="group-expires-at" />
      </Form.Item>
      <Form.Item label={t('group.vipLevels')} field="vip_levels" extra={t('group.vipLevels.extra')}>
        <ResourceSelect<{ id: string; name: string }> prefix={VIP_PREFIX} labelOf={(l) => l.name} mode="multiple" placeholder={t('group.vipLevels')} data-testid="group-vip-levels" />
      </Form.Item>
      <Form.Item label={t('group.status')} field="status">
        <Select style={{ width: 220 }} data-testid="group-status">
          <Select.Option value={Status.Normal}>{g('resource.status.1')}</Select.Option>
          <Select.Option value={Status.Disabled}>{g('resource.status.2')}</Select.Option>
        </Select>
      </Form.Item>
      <Form.Item label={t('group.remark')} field="remark" rules={[{ maxLength: 500 }]}>
        <Input.TextArea maxLength={500} showWordLimit autoSize={{ minRows: 2, maxRows: 6 }} data-testid="group-remark" />
      </Form.Item>

      <Divider orientation="left">{t('group.limits')}</Divider>
      <LimitsSection />

      <Divider orientation="left">{t('group.routing')}</Divider>
      {admin && <AgentSection />}
      <ForwardSection />
    </ResourceForm>
  );
}

export const CreateGroup = () => <GroupForm mode="create" />;
export const UpdateGroup = () => <GroupForm mode="update" />;
