// Preset config, model agents and fallback of a model (docs/ORIGINAL-API.md §3.5, docs/ORIGINAL-GATEWAY.md §1.10).
import { Form, Input, InputNumber, Radio, Space, Switch } from '@arco-design/web-react';
import type { ReactNode } from 'react';
import { LbStrategy } from '@fastgate/core/entities/catalogue';
import { MODEL_AGENT_PREFIX } from '@fastgate/core/entities/model-agent';
import { MODEL_PREFIX, presetConfigSchema, type ModelListItem } from '@fastgate/core/entities/model';
import { ResourceSelect, type ResourceSelectProps } from '../../../components/ResourceSelect';
import { required, schemaRule } from '../../../components/rules';
import { usePageLocale } from '../../../locale';
import locale from '../locale';

/** Shows `children` while the switch `field` is on. */
export function Toggle({ field, label, testId, extra, children }: { field: string; label: ReactNode; testId: string; extra?: ReactNode; children: ReactNode }) {
  const { form } = Form.useFormContext();
  const on = Form.useWatch(field, form) as boolean | undefined;
  return (
    <>
      <Form.Item label={label} field={field} triggerPropName="checked" extra={extra}>
        <Switch data-testid={testId} />
      </Form.Item>
      {on && children}
    </>
  );
}

/** Models to pick as targets; the model being edited is left out (it cannot forward or fall back to itself). */
export function ModelPicker({ self, ...rest }: Omit<ResourceSelectProps<ModelListItem>, 'prefix' | 'labelOf'> & { self?: string }) {
  return <ResourceSelect<ModelListItem> {...rest} prefix={MODEL_PREFIX} labelOf={(m) => (m.name === m.model ? m.name : `${m.name} (${m.model})`)} filterItems={(m) => m.id !== self} />;
}

function AgentPicker(props: Omit<ResourceSelectProps<{ id: string; name: string }>, 'prefix' | 'labelOf'>) {
  return <ResourceSelect<{ id: string; name: string }> {...props} prefix={MODEL_AGENT_PREFIX} labelOf={(a) => a.name} />;
}

const tokens = presetConfigSchema.shape.max_tokens.unwrap();

export function PresetSection() {
  const t = usePageLocale(locale);
  const { form } = Form.useFormContext();
  const systemRole = Form.useWatch('preset_config.is_support_system_role', form) as boolean | undefined;
  const invalid = t('model.invalid');
  return (
    <Toggle field="is_enable_preset_config" label={t('model.isEnablePresetConfig')} testId="model-preset">
      <Form.Item label={t('model.isSupportSystemRole')} field="preset_config.is_support_system_role" triggerPropName="checked">
        <Switch data-testid="model-system-role" />
      </Form.Item>
      {systemRole && (
        <Form.Item label={t('model.systemRolePrompt')} field="preset_config.system_role_prompt" rules={[schemaRule(presetConfigSchema.shape.system_role_prompt, invalid)]}>
          <Input.TextArea maxLength={20_000} autoSize={{ minRows: 3, maxRows: 10 }} placeholder={t('model.systemRolePrompt.placeholder')} data-testid="model-system-prompt" />
        </Form.Item>
      )}
      <Form.Item label={t('model.maxTokensRange')} extra={t('model.maxTokens.extra')}>
        <Space>
          <Form.Item field="preset_config.min_tokens" noStyle={{ showErrorTip: true }} rules={[schemaRule(tokens, invalid)]}>
            <InputNumber min={0} precision={0} placeholder={t('model.minTokens')} style={{ width: 160 }} data-testid="model-min-tokens" />
          </Form.Item>
          <span>~</span>
          <Form.Item
            field="preset_config.max_tokens"
            noStyle={{ showErrorTip: true }}
            rules={[
              schemaRule(tokens, invalid),
              {
                validator: (max: number | undefined, callback: (error?: string) => void) => {
                  const min = form.getFieldValue('preset_config.min_tokens') as number | undefined;
                  callback(max && min && max < min ? t('model.maxTokens.order') : undefined);
                },
              },
            ]}
          >
            <InputNumber min={0} precision={0} placeholder={t('model.maxTokens')} style={{ width: 160 }} data-testid="model-max-tokens" />
          </Form.Item>
        </Space>
      </Form.Item>
      <Form.Item label={t('model.isSupportStream')} field="preset_config.is_support_stream" triggerPropName="checked">
        <Switch data-testid="model-stream" />
      </Form.Item>
    </Toggle>
  );
}

export function AgentsSection() {
  const t = usePageLocale(locale);
  return (
    <Toggle field="is_enable_model_agent" label={t('model.isEnableModelAgent')} testId="model-agent-on">
      <Form.Item label={t('model.lbStrategy')} field="lb_strategy">
        <Radio.Group data-testid="model-lb">
          <Radio value={LbStrategy.RoundRobin}>{t('model.lbStrategy.1')}</Radio>
          <Radio value={LbStrategy.Weight}>{t('model.lbStrategy.2')}</Radio>
        </Radio.Group>
      </Form.Item>
      <Form.Item label={t('model.modelAgents')} field="model_agents" rules={[required(t('model.modelAgents.required'))]}>
        <AgentPicker mode="multiple" maxTagCount={8} placeholder={t('model.modelAgents.placeholder')} data-testid="model-agents" />
      </Form.Item>
    </Toggle>
  );
}

export function FallbackSection({ self }: { self?: string }) {
  const t = usePageLocale(locale);
  const { form } = Form.useFormContext();
  // core: a switched-on fallback needs an agent or a model.
  const either = {
    validator: (_: unknown, callback: (error?: string) => void) => {
      const f = form.getFieldValue('fallback_config') as { model_agent?: string; model?: string } | undefined;
      callback(f?.model_agent || f?.model ? undefined : t('model.fallback.required'));
    },
  };
  return (
    <Toggle field="is_enable_fallback" label={t('model.isEnableFallback')} testId="model-fallback-on" extra={t('model.fallback.extra')}>
      <Form.Item label={t('model.fallbackAgent')} field="fallback_config.model_agent" rules={[either]}>
        <AgentPicker style={{ width: 360 }} data-testid="model-fallback-agent" onChange={() => void form.validate(['fallback_config.model']).catch(() => undefined)} />
      </Form.Item>
      <Form.Item label={t('model.fallbackModel')} field="fallback_config.model" rules={[either]}>
        <ModelPicker self={self} style={{ width: 360 }} data-testid="model-fallback-model" onChange={() => void form.validate(['fallback_config.model_agent']).catch(() => undefined)} />
      </Form.Item>
    </Toggle>
  );
}
