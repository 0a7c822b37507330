// VIP level create and update (admin and reseller): discount in percent, colour picker, duration in
// minutes (empty = permanent), groups, speed limits and the upgrade/downgrade rules editor. Rule targets
// are levels of the same owner (the server checks it, and refuses a rule pointing at its own level).
import { Button, ColorPicker, Divider, Form, Grid, Input, InputNumber, Select, Space, Switch } from '@arco-design/web-react';
import { IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { Status } from '@fastgate/core/constants';
import { GROUP_PREFIX, type GroupListItem } from '@fastgate/core/entities/group';
import { hasVipThreshold, VIP_PREFIX, type VipLevel, type VipLevelListItem, type VipRule } from '@fastgate/core/entities/vip';
import { ADMIN_ONLY } from '@fastgate/core/routes';
import { useSearchParams } from 'react-router';
import { useDiscountFloor } from '../../../components/discount-floor';
import { usePermission } from '../../../components/Permission';
import { QuotaInput } from '../../../components/QuotaInput';
import { ResourceForm, type FormMode } from '../../../components/ResourceForm';
import { ResourceSelect } from '../../../components/ResourceSelect';
import { required } from '../../../components/rules';
import { useGlobalLocale, usePageLocale } from '../../../locale';
import { useUserStore } from '../../../stores/user';
import { RATE_LIMIT_KEYS } from '../../../components/group/display';
import locale from './locale';
import { vipInitialValues, vipToBody, vipToValues, type VipValues } from './values';

const MAX = 100;

function RulesEditor() {
  const t = usePageLocale(locale);
  const admin = usePermission(ADMIN_ONLY);
  const me = useUserStore((s) => s.info?.user_id);
  const [search] = useSearchParams();
  const self = search.get('id');
  const { form } = Form.useFormContext();
  return (
    <Form.Item shouldUpdate noStyle>
      {(values: Partial<VipValues>) => {
        // Targets: levels of the same owner, never the level itself.
        const owner = values.user_id ?? (admin ? 0 : me);
        return (
          <Form.List field="rules">
            {(fields, { add, remove }) => (
              <Form.Item label={t('vip.rules')} extra={t('vip.rules.extra')}>
                <Space direction="vertical" size={8} style={{ width: '100%' }} data-testid="vip-rules">
                  {fields.map((item, index) => (
                    <Space key={item.key} align="start" wrap data-testid={`vip-rule-${index}`}>
                      <Form.Item field={`${item.field}.type`} noStyle initialValue="upgrade">
                        <Select style={{ width: 110 }} data-testid={`vip-rule-type-${index}`}>
                          <Select.Option value="upgrade">{t('vip.rule.upgrade')}</Select.Option>
                          <Select.Option value="downgrade">{t('vip.rule.downgrade')}</Select.Option>
                        </Select>
                      </Form.Item>
                      {/* Errors show under the editor's label (noStyle items have none of their own). */}
                      <Form.Item
                        field={`${item.field}.recharge_quota`}
                        noStyle={{ showErrorTip: true }}
                        rules={[
                          {
                            validator: (_: unknown, callback: (error?: string) => void) =>
                              callback(hasVipThreshold((form.getFieldValue(item.field) ?? {}) as Partial<VipRule>) ? undefined : t('vip.rule.threshold')),
                          },
                        ]}
                      >
                        <QuotaInput placeholder={t('vip.rule.recharge')} style={{ width: 170 }} data-testid={`vip-rule-recharge-${index}`} />
                      </Form.Item>
                      <Form.Item field={`${item.field}.used_quota`} noStyle>
                        <QuotaInput
                          placeholder={t('vip.rule.used')}
                          style={{ width: 170 }}
                          data-testid={`vip-rule-used-${index}`}
                          // A used threshold also satisfies the rule: clear the recharge item's error once it does.
                          onChange={() => {
                            const recharge = `${item.field}.recharge_quota`;
                            if (form.getFieldError(recharge)) void form.validate([recharge], { noScrollToFirstError: true }).catch(() => undefined);
                          }}
                        />
                      </Form.Item>
                      <Form.Item field={`${item.field}.target_level`} noStyle={{ showErrorTip: true }} rules={[required(t('vip.rule.target.required'))]}>
                        <ResourceSelect<VipLevelListItem>
                          prefix={VIP_PREFIX}
                          labelOf={(l) => l.name}
                          filterItems={(l) => l.user_id === owner && l.id !== self}
                          placeholder={t('vip.rule.target')}
                          style={{ width: 180 }}
                          data-testid={`vip-rule-target-${index}`}
                        />
                      </Form.Item>
                      <Button icon={<IconDelete />} status="danger" onClick={() => remove(index)} data-testid={`vip-rule-remove-${index}`} />
                    </Space>
                  ))}
                  <Button icon={<IconPlus />} onClick={() => add({ type: 'upgrade' })} data-testid="vip-rule-add">
                    {t('vip.rules.add')}
                  </Button>
                </Space>
              </Form.Item>
            )}
          </Form.List>
        );
      }}
    </Form.Item>
  );
}

function VipForm({ mode }: { mode: FormMode }) {
  const t = usePageLocale(locale);
  const { g, tk } = useGlobalLocale();
  const floor = useDiscountFloor();
  return (
    <ResourceForm<VipLevel, VipValues>
      prefix={VIP_PREFIX}
      mode={mode}
      listRoute="sys.vip.list"
      title={tk(`menu.sys.vip.${mode}`)}
      labelSpan={5}
      initialValues={vipInitialValues}
      toValues={vipToValues}
      toBody={vipToBody}
    >
      <Divider orientation="left">{t('vip.basic')}</Divider>
      <Form.Item label={t('vip.name')} field="name" rules={[required(t('vip.name.required')), { maxLength: MAX }]}>
        <Input maxLength={MAX} showWordLimit data-testid="vip-name" />
      </Form.Item>
      <Form.Item
        label={t('vip.discount')}
        field="discount"
        rules={[{ required: true, type: 'number', min: 0, max: 100 }, floor.rule]}
        extra={
          <>
            {t('vip.discount.extra')}
            {floor.hint && <div data-testid="discount-floor-hint">{floor.hint}</div>}
          </>
        }
      >
        <InputNumber min={0} max={100} precision={2} suffix="%" style={{ width: 220 }} data-testid="vip-discount" />
      </Form.Item>
      <Form.Item label={t('vip.color')} field="color" extra={t('vip.color.extra')}>
        <ColorPicker showText disabledAlpha data-testid="vip-color" />
      </Form.Item>
      <Form.Item label={t('vip.duration')} field="duration" extra={t('vip.duration.extra')}>
        <InputNumber min={0} precision={0} placeholder={t('vip.permanent')} style={{ width: 220 }} data-testid="vip-duration" />
      </Form.Item>
      <Form.Item label={t('vip.groups')} field="groups" extra={t('vip.groups.extra')}>
        <ResourceSelect<GroupListItem> prefix={GROUP_PREFIX} labelOf={(x) => x.name} mode="multiple" data-testid="vip-groups" />
      </Form.Item>
      <Form.Item label={t('vip.isPublic')} field="is_public" triggerPropName="checked" extra={t('vip.isPublic.extra')}>
        <Switch data-testid="vip-public" />
      </Form.Item>
      <Form.Item label={t('vip.isDefault')} field="is_default" triggerPropName="checked" extra={t('vip.isDefault.extra')}>
        <Switch data-testid="vip-default" />
      </Form.Item>
      <Form.Item label={t('vip.sort')} field="sort" extra={t('vip.sort.extra')}>
        <InputNumber min={0} max={1_000_000} precision={0} style={{ width: 220 }} data-testid="vip-sort" />
      </Form.Item>
      <Form.Item label={t('vip.status')} field="status">
        <Select style={{ width: 220 }} data-testid="vip-status">
          <Select.Option value={Status.Normal}>{g('resource.status.1')}</Select.Option>
          <Select.Option value={Status.Disabled}>{g('resource.status.2')}</Select.Option>
        </Select>
      </Form.Item>
      <Form.Item label={t('vip.remark')} field="remark" rules={[{ maxLength: 500 }]}>
        <Input.TextArea maxLength={500} showWordLimit autoSize={{ minRows: 2, maxRows: 6 }} data-testid="vip-remark" />
      </Form.Item>

      <Divider orientation="left">{t('vip.limits')}</Divider>
      <Form.Item label={t('vip.rateLimits')} extra={t('vip.rateLimits.extra')}>
        <Grid.Row gutter={[12, 8]} data-testid="vip-rate-limits">
          {RATE_LIMIT_KEYS.map((k) => (
            <Grid.Col span={8} key={k}>
              <Form.Item field={`rate_limits.${k}`} noStyle>
                <InputNumber min={0} max={1_000_000_000} precision={0} prefix={k.toUpperCase()} placeholder="0" data-testid={`vip-limit-${k}`} />
              </Form.Item>
            </Grid.Col>
          ))}
        </Grid.Row>
      </Form.Item>
      <RulesEditor />
    </ResourceForm>
  );
}

export const CreateVip = () => <VipForm mode="create" />;
export const UpdateVip = () => <VipForm mode="update" />;
