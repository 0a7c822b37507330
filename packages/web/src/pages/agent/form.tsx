// Model agent create and update (docs/ORIGINAL-API.md §3.6). Each line of the keys textarea becomes a model key
// bound to the agent; on update the bound keys are listed masked with remove buttons and kept by id, so
// their secrets never reach the form (issue 11). Model replacement is edited as rows and sent as the two
// index-paired arrays of the wire.
import { useSearchParams } from 'react-router';
import { Button, Divider, Form, Grid, Input, InputNumber, Radio, Select, Space, Switch } from '@arco-design/web-react';
import { IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { LbStrategy } from '@fastgate/core/entities/catalogue';
import { MODEL_AGENT_PREFIX, providerKeysField, splitKeys, WIRE_APIS, type ModelAgent } from '@fastgate/core/entities/model-agent';
import { KEY_PREFIX } from '@fastgate/core/entities/provider-key';
import { MODEL_PREFIX } from '@fastgate/core/entities/model';
import { Status } from '@fastgate/core/constants';
import { CorpSelect } from '../../components/CorpSelect';
import { ModelSelect } from '../../components/ModelSelect';
import { ResourceForm, type FormMode } from '../../components/ResourceForm';
import { required, zodRule } from '../../components/rules';
import { useGlobalLocale, usePageLocale } from '../../locale';
import { BoundKeys } from './BoundKeys';
import locale from './locale';
import { agentToBody, agentToValues, newAgentValues, type AgentValues as Values } from './values';

/** A row input of a list: full width, its error message under it. */
const ROW_ITEM = { span: 24 };

const MAX = 100;

function ReplaceRows() {
  const t = usePageLocale(locale);
  return (
    <Form.List field="replace_pairs">
      {(fields, { add, remove }) => (
        <Space direction="vertical" style={{ width: '100%' }}>
          {fields.map((item, index) => (
            <Grid.Row key={item.key} gutter={8} align="start" data-testid={`agent-replace-row-${index}`}>
              <Grid.Col span={10}>
                <Form.Item field={`${item.field}.from`} wrapperCol={ROW_ITEM} style={{ marginBottom: 0 }} rules={[required(t('agent.replace.required'))]}>
                  <Input addBefore={t('agent.replaceModel')} placeholder={t('agent.replaceModel.placeholder')} maxLength={100} data-testid={`agent-replace-from-${index}`} />
                </Form.Item>
              </Grid.Col>
              <Grid.Col span={1} style={{ textAlign: 'center', lineHeight: '32px' }}>
                →
              </Grid.Col>
              <Grid.Col span={10}>
                <Form.Item field={`${item.field}.to`} wrapperCol={ROW_ITEM} style={{ marginBottom: 0 }} rules={[required(t('agent.replace.required'))]}>
                  <Input addBefore={t('agent.targetModel')} placeholder={t('agent.targetModel.placeholder')} maxLength={100} data-testid={`agent-replace-to-${index}`} />
                </Form.Item>
              </Grid.Col>
              <Grid.Col span={3}>
                <Button icon={<IconDelete />} status="danger" type="text" onClick={() => remove(index)} aria-label="remove" />
              </Grid.Col>
            </Grid.Row>
          ))}
          <Button type="dashed" icon={<IconPlus />} onClick={() => add({ from: '', to: '' })} data-testid="agent-replace-add">
            {t('agent.replace.add')}
          </Button>
        </Space>
      )}
    </Form.List>
  );
}

function AgentForm({ mode }: { mode: FormMode }) {
  const t = usePageLocale(locale);
  const { g, tk } = useGlobalLocale();
  const [form] = Form.useForm<Values>();
  const keyText = Form.useWatch('key', form);
  const agentId = useSearchParams()[0].get('id') ?? '';
  const max = { maxLength: MAX, message: t('agent.max100') };
  return (
    <ResourceForm<ModelAgent, Values>
      prefix={MODEL_AGENT_PREFIX}
      mode={mode}
      listRoute="agent.list"
      title={tk(`menu.agent.${mode}`)}
      form={form}
      labelSpan={5}
      // Keys and models show agent names: their lists refresh with the agent.
      alsoInvalidate={[KEY_PREFIX, MODEL_PREFIX]}
      initialValues={newAgentValues()}
      toValues={agentToValues}
      toBody={agentToBody}
    >
      <Divider orientation="left">{t('agent.basic')}</Divider>
      <Form.Item label={t('agent.corp')} field="corp" rules={[required(t('agent.corp.required'))]}>
        <CorpSelect data-testid="agent-corp" />
      </Form.Item>
      <Form.Item label={t('agent.name')} field="name" rules={[required(t('agent.name.required')), max]}>
        <Input maxLength={MAX} showWordLimit data-testid="agent-name" />
      </Form.Item>
      <Form.Item label={t('agent.baseUrl')} field="base_url" rules={[required(t('agent.baseUrl.required')), { maxLength: 500 }]}>
        <Input placeholder={t('agent.baseUrl.placeholder')} maxLength={500} data-testid="agent-base-url" />
      </Form.Item>
      <Form.Item label={t('agent.path')} field="path" rules={[{ maxLength: 300 }]}>
        <Input placeholder={t('agent.path.placeholder')} maxLength={300} data-testid="agent-path" />
      </Form.Item>
      <Form.Item label={t('agent.wireApi')} field="wire_api" extra={t('agent.wireApi.extra')}>
        <Select style={{ width: 220 }} data-testid="agent-wire-api">
          {WIRE_APIS.map((w) => (
            <Select.Option key={w} value={w}>
              {t(`agent.wireApi.${w}`)}
            </Select.Option>
          ))}
        </Select>
      </Form.Item>
      <Form.Item label={t('agent.weight')} field="weight" rules={[{ required: true, type: 'number', min: 1, max: 100 }]} extra={t('agent.weight.extra')}>
        <InputNumber min={1} max={100} precision={0} style={{ width: 220 }} data-testid="agent-weight" />
      </Form.Item>

      <Divider orientation="left">{t('agent.routing')}</Divider>
      <Form.Item label={t('agent.models')} field="models">
        <ModelSelect data-testid="agent-models" />
      </Form.Item>
      <Form.Item label={t('agent.modelReplace')} field="is_enable_model_replace" triggerPropName="checked" extra={t('agent.modelReplace.extra')}>
        <Switch data-testid="agent-model-replace" />
      </Form.Item>
      <Form.Item shouldUpdate noStyle>
        {(values: Partial<Values>) =>
          values.is_enable_model_replace ? (
            <Form.Item label=" " colon={false}>
              <ReplaceRows />
            </Form.Item>
          ) : null
        }
      </Form.Item>
      <Form.Item label={t('agent.lbStrategy')} field="lb_strategy">
        <Radio.Group type="button" data-testid="agent-lb-strategy">
          <Radio value={LbStrategy.RoundRobin}>{t('agent.lbStrategy.1')}</Radio>
          <Radio value={LbStrategy.Weight}>{t('agent.lbStrategy.2')}</Radio>
        </Radio.Group>
      </Form.Item>
      <Form.Item label={t('agent.fallbackModels')} field="fallback_models" extra={t('agent.fallbackModels.extra')}>
        <ModelSelect data-testid="agent-fallback-models" />
      </Form.Item>
      <Form.Item label={t('agent.neverDisable')} field="is_never_disable" triggerPropName="checked" extra={t('agent.neverDisable.extra')}>
        <Switch data-testid="agent-never-disable" />
      </Form.Item>

      <Divider orientation="left">{t('agent.keySection')}</Divider>
      {mode === 'update' && (
        <Form.Item shouldUpdate noStyle>
          {(values: Partial<Values>) => (
            <Form.Item label={t('agent.keys.bound')} field="key_ids" extra={t('agent.keys.bound.extra')}>
              <BoundKeys agentId={agentId} keys={values.bound_keys ?? []} />
            </Form.Item>
          )}
        </Form.Item>
      )}
      <Form.Item
        label={t(mode === 'update' ? 'agent.keys.new' : 'agent.keys')}
        field="key"
        rules={[zodRule(providerKeysField)]}
        extra={t(mode === 'update' ? 'agent.keys.new.extra' : 'agent.keys.extra', { count: splitKeys(keyText ?? '').length })}
      >
        <Input.TextArea placeholder={t('agent.keys.placeholder')} autoSize={{ minRows: mode === 'update' ? 2 : 4, maxRows: 12 }} style={{ fontFamily: 'monospace' }} data-testid="agent-keys" />
      </Form.Item>
      <Form.Item label={t('agent.keyAgentsOnly')} field="is_agents_only" triggerPropName="checked" extra={t('agent.keyAgentsOnly.extra')}>
        <Switch data-testid="agent-key-agents-only" />
      </Form.Item>
      <Form.Item label={t('agent.keyNeverDisable')} field="is_never_disable_key" triggerPropName="checked">
        <Switch data-testid="agent-key-never-disable" />
      </Form.Item>

      <Divider />
      <Form.Item label={t('agent.status')} field="status">
        <Select style={{ width: 220 }} data-testid="agent-status">
          <Select.Option value={Status.Normal}>{g('resource.status.1')}</Select.Option>
          <Select.Option value={Status.Disabled}>{g('resource.status.2')}</Select.Option>
        </Select>
      </Form.Item>
      <Form.Item label={t('agent.remark')} field="remark" rules={[{ maxLength: 500 }]}>
        <Input.TextArea maxLength={500} showWordLimit autoSize={{ minRows: 3, maxRows: 6 }} data-testid="agent-remark" />
      </Form.Item>
    </ResourceForm>
  );
}

export const CreateAgent = () => <AgentForm mode="create" />;
export const UpdateAgent = () => <AgentForm mode="update" />;
