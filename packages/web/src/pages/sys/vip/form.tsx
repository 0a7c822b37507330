// VIP level create and update (admin and reseller): discount in percent, colour picker, duration in
// minutes (empty = permanent), groups, speed limits and the upgrade/downgrade rules editor. Rule targets
// are levels of the same owner (the server checks it, and refuses a rule pointing at its own level).
import { Button, ColorPicker, Divider, Form, Grid, Input, InputNumber, Select, Space, Switch } from '@arco-design/web-react';
import { IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { Status } from '@fastgate/core/constants';
import type { RateLimits } from '@fastgate/core/entities/catalogue';
import { GROUP_PREFIX, type GroupListItem } from '@fastgate/core/entities/group';
import { VIP_PREFIX, type VipLevel, type VipLevelListItem, type VipRule } from '@fastgate/core/entities/vip';
import { useSearchParams } from 'react-router';
import { usePermission } from '../../../components/Permission';
import { useDiscountFloor } from '../../../components/discount-floor';
import { QuotaInput } from '../../../components/QuotaInput';
import { ResourceForm, type FormMode } from '../../../components/ResourceForm';
import { ResourceSelect } from '../../../components/ResourceSelect';
import { required } from '../../../components/rules';
import { useGlobalLocale, usePageLocale } from '../../../locale';
import { useUserStore } from '../../../stores/user';
import { discountPercent, RATE_LIMIT_KEYS } from '../../group/values';
import locale from './locale';

const MAX = 100;
const ADMIN = ['admin'] as const;

interface Values {
  user_id?: number;
  name: string;
  discount: number;
  color?: string;
  duration?: number;
  groups?: string[];
  is_public: boolean;
  is_default: boolean;
  sort?: number;
  remark?: string;
  rate_limits?: Partial<Record<keyof RateLimits, number | undefined>>;
  rules?: Partial<VipRule>[];
  status: number;
}

const initialValues: Partial<Values> = { discount: 100, color: '#d4af37', is_public: true, is_default: false, sort: 0, status: Status.Normal, rules: [] };

const toValues = (row: VipLevel): Partial<Values> => ({
  ...row,
  discount: discountPercent(row.discount),
  duration: row.duration || undefined,
  rate_limits: Object.fromEntries(RATE_LIMIT_KEYS.map((k) => [k, row.rate_limits?.[k] || undefined])),
  rules: row.rules.map(({ type, recharge_quota, used_quota, target_level }) => ({ type, recharge_quota, used_quota, target_level })),
});

const toBody = (v: Values) => ({
  name: v.name.trim(),
  discount: v.discount,
  color: typeof v.color === 'string' && /^#[0-9a-fA-F]{6}$/.test(v.color) ? v.color : '',
  duration: v.duration ?? 0,
  groups: v.groups ?? [],
  is_public: v.is_public,
  is_default: v.is_default,
  sort: v.sort ?? 0,
  remark: v.remark ?? '',
  rate_limits: Object.fromEntries(RATE_LIMIT_KEYS.map((k) => [k, v.rate_limits?.[k] ?? 0])),
  rules: (v.rules ?? []).map((r) => ({ type: r.type ?? 'upgrade', recharge_quota: r.recharge_quota ?? 0, used_quota: r.used_quota ?? 0, target_level: r.target_level ?? '' })),
  status: v.status,
});

function RulesEditor() {
  const t = usePageLocale(locale);
  const admin = usePermission(ADMIN);
  const me = useUserStore((s) => s.info?.user_id);
  const [search] = useSearchParams();
  const self = search.get('id');
  return (
    <Form.Item shouldUpdate noStyle>
      {(values: Partial<Values>) => {
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
                      <Form.Item field={`${item.field}.recharge_quota`} noStyle>
                        <QuotaInput placeholder={t('vip.rule.recharge')} style={{ width: 170 }} data-testid={`vip-rule-recharge-${index}`} />
                      </Form.Item>
                      <Form.Item field={`${item.field}.used_quota`} noStyle>
                        <QuotaInput placeholder={t('vip.rule.used')} style={{ width: 170 }} data-testid={`vip-rule-used-${index}`} />
                      </Form.Item>
                      <Form.Item field={`${item.field}.target_level`} noStyle rules={[required(t('vip.rule.target.required'))]}>
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

export function VipForm({ mode }: { mode: FormMode }) {
  const t = usePageLocale(locale);
  const { g, tk } = useGlobalLocale();
  const floor = useDiscountFloor();
  return (
    <ResourceForm<VipLevel, Values>
      prefix={VIP_PREFIX}
      mode={mode}
      listRoute="sys.vip.list"
      title={tk(`menu.sys.vip.${mode}`)}
      labelSpan={5}
      initialValues={initialValues}
      toValues={toValues}
      toBody={toBody}
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
