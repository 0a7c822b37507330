// Group form section: model agents (admin only) and forwarding (docs/ORIGINAL-GATEWAY.md §1.4; a group's forward
// config replaces the model's). Each forward rule shows only the fields it uses.
import { Button, Checkbox, Form, Grid, Input, InputNumber, Radio, Space, Switch } from '@arco-design/web-react';
import { IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { ForwardRule, LbStrategy, MatchRule } from '@fastgate/core/entities/catalogue';
import { QuotaInput } from '../../components/QuotaInput';
import { required } from '../../components/rules';
import { usePageLocale } from '../../locale';
import { AgentSelect } from '../../components/AgentSelect';
import locale from './locale';
import { OneModelSelect } from './OneModelSelect';
import type { GroupValues } from './values';

/** A row input of a list: full width, its error message under it. */
const ROW_ITEM = { span: 24 };

const RULES = [ForwardRule.All, ForwardRule.Keywords, ForwardRule.ContentLength, ForwardRule.UsedQuota] as const;

export function AgentSection() {
  const t = usePageLocale(locale);
  return (
    <>
      <Form.Item label={t('group.modelAgent')} field="is_enable_model_agent" triggerPropName="checked" extra={t('group.modelAgent.extra')}>
        <Switch data-testid="group-model-agent" />
      </Form.Item>
      <Form.Item shouldUpdate noStyle>
        {(values: Partial<GroupValues>) =>
          values.is_enable_model_agent ? (
            <>
              <Form.Item label={t('group.lbStrategy')} field="lb_strategy">
                <Radio.Group type="button">
                  <Radio value={LbStrategy.RoundRobin}>{t('group.lbStrategy.1')}</Radio>
                  <Radio value={LbStrategy.Weight}>{t('group.lbStrategy.2')}</Radio>
                </Radio.Group>
              </Form.Item>
              <Form.Item label={t('group.modelAgents')} field="model_agents">
                <AgentSelect data-testid="group-model-agents" />
              </Form.Item>
            </>
          ) : null
        }
      </Form.Item>
    </>
  );
}

function KeywordRows() {
  const t = usePageLocale(locale);
  return (
    <Form.List
      field="forward_config.keyword_rows"
      rules={[{ validator: (rows: unknown[] | undefined, cb: (e?: string) => void) => cb(rows?.length ? undefined : t('group.keyword.atLeastOne')) }]}
    >
      {(fields, { add, remove }) => (
        <Space direction="vertical" style={{ width: '100%' }}>
          {fields.map((item, index) => (
            <Grid.Row key={item.key} gutter={8} data-testid={`group-keyword-row-${index}`}>
              <Grid.Col span={10}>
                <Form.Item field={`${item.field}.keyword`} wrapperCol={ROW_ITEM} style={{ marginBottom: 0 }} rules={[required(t('group.keyword.required'))]}>
                  <Input placeholder={t('group.keyword.placeholder')} maxLength={500} />
                </Form.Item>
              </Grid.Col>
              <Grid.Col span={1} style={{ textAlign: 'center', lineHeight: '32px' }}>
                →
              </Grid.Col>
              <Grid.Col span={10}>
                <Form.Item field={`${item.field}.target_model`} wrapperCol={ROW_ITEM} style={{ marginBottom: 0 }} rules={[required(t('group.targetModel.required'))]}>
                  <OneModelSelect />
                </Form.Item>
              </Grid.Col>
              <Grid.Col span={3}>
                <Button icon={<IconDelete />} status="danger" type="text" onClick={() => remove(index)} aria-label="remove" />
              </Grid.Col>
            </Grid.Row>
          ))}
          <Button type="dashed" icon={<IconPlus />} onClick={() => add({ keyword: '' })}>
            {t('group.keyword.add')}
          </Button>
        </Space>
      )}
    </Form.List>
  );
}

function RuleFields({ rule, smart }: { rule: number | undefined; smart: boolean }) {
  const t = usePageLocale(locale);
  const target = (
    <Form.Item label={t('group.targetModel')} field="forward_config.target_model" rules={[required(t('group.targetModel.required'))]}>
      <OneModelSelect data-testid="group-forward-target" />
    </Form.Item>
  );
  switch (rule) {
    case ForwardRule.Keywords:
      return (
        <>
          <Form.Item label={t('group.matchRule')} field="forward_config.match_rule" rules={[{ required: true, type: 'array', minLength: 1, message: t('group.matchRule.required') }]}>
            <Checkbox.Group options={[MatchRule.Smart, MatchRule.Regex].map((m) => ({ value: m, label: t(`group.matchRule.${m}`) }))} />
          </Form.Item>
          {smart && (
            <Form.Item label={t('group.decisionModel')} field="forward_config.decision_model" rules={[required(t('group.targetModel.required'))]} extra={t('group.decisionModel.extra')}>
              <OneModelSelect />
            </Form.Item>
          )}
          <Form.Item label={t('group.keywords')} extra={t('group.keywords.extra')}>
            <KeywordRows />
          </Form.Item>
        </>
      );
    case ForwardRule.ContentLength:
      return (
        <>
          {target}
          <Form.Item label={t('group.contentLength')} field="forward_config.content_length" rules={[{ required: true, type: 'number', min: 1, message: t('group.contentLength.required') }]} extra={t('group.contentLength.extra')}>
            <InputNumber min={1} max={10_000_000} precision={0} style={{ width: 220 }} />
          </Form.Item>
        </>
      );
    case ForwardRule.UsedQuota:
      return (
        <>
          {target}
          <Form.Item label={t('group.usedQuota')} field="forward_config.used_quota" extra={t('group.usedQuota.extra')}>
            <QuotaInput />
          </Form.Item>
        </>
      );
    default:
      return target;
  }
}

export function ForwardSection() {
  const t = usePageLocale(locale);
  return (
    <>
      <Form.Item label={t('group.forward')} field="is_enable_forward" triggerPropName="checked" extra={t('group.forward.extra')}>
        <Switch data-testid="group-forward" />
      </Form.Item>
      <Form.Item shouldUpdate noStyle>
        {(values: Partial<GroupValues>) =>
          values.is_enable_forward ? (
            <>
              <Form.Item label={t('group.forwardRule')} field="forward_config.forward_rule">
                <Radio.Group type="button" data-testid="group-forward-rule">
                  {RULES.map((r) => (
                    <Radio key={r} value={r}>
                      {t(`group.forwardRule.${r}`)}
                    </Radio>
                  ))}
                </Radio.Group>
              </Form.Item>
              <RuleFields rule={values.forward_config?.forward_rule} smart={!!values.forward_config?.match_rule?.includes(MatchRule.Smart)} />
            </>
          ) : null
        }
      </Form.Item>
    </>
  );
}
