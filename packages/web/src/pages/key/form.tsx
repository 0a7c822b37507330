// Model key create and update (docs/ORIGINAL-API.md §3.4, `/key/*` with `type: 2`). Create takes many keys, one per
// line, each becoming its own record with the same settings; update edits one record. Detail answers the
// key masked (issue 11): update shows the mask and sends a key only when a new one is typed.
// The route is open to every role (docs/SPEC.md §2.2), but model keys are admin-only on the server: shell/pages.ts
// opens the app-key screens for other roles instead.
import { Form, Input, InputNumber, Select, Switch } from '@arco-design/web-react';
import { Status } from '@fastgate/core/constants';
import { MODEL_AGENT_PREFIX } from '@fastgate/core/entities/model-agent';
import { KEY_LINE, KEY_PREFIX, KeyType, modelKeyCreateSchema, providerKeyResource, type ModelKey } from '@fastgate/core/entities/provider-key';
import type { Fields } from '@fastgate/core/resource';
import { splitKeys } from '@fastgate/core/entities/model-agent';
import { CorpSelect } from '../../components/CorpSelect';
import { ModelSelect } from '../../components/ModelSelect';
import { QuotaInput } from '../../components/QuotaInput';
import { ResourceForm, type FormMode } from '../../components/ResourceForm';
import { required, zodRule } from '../../components/rules';
import { tm, useGlobalLocale, usePageLocale } from '../../locale';
import { AgentSelect } from '../../components/AgentSelect';
import locale from './locale';

/** The key's settings as declared (core entities/provider-key.ts), with the fields a cleared input leaves empty optional, and the key text. */
type Optional = 'models' | 'model_agents' | 'quota' | 'remark';
type KeyFields = Fields<typeof providerKeyResource>;
type Values = Omit<KeyFields, Optional> &
  Partial<Pick<KeyFields, Optional>> & {
    key: string;
    /** Update: the stored key's mask, shown only. */
    key_mask?: string;
  };

/** One key on update (docs/SPEC.md §5 format). */
const oneKeyRule = {
  validator: (value: unknown, callback: (error?: string) => void) => callback(!value || KEY_LINE.test(String(value).trim()) ? undefined : tm('key.format')),
};

/** Detail → form: the key field starts empty ('' keeps the stored key); the mask is shown beside it. */
const toValues = (row: ModelKey): Partial<Values> => ({ ...providerKeyResource.pick(row), key: '', key_mask: row.key });

function toBody(v: Values, mode: FormMode): object {
  return {
    ...providerKeyResource.pick(v),
    type: KeyType.Model,
    key: mode === 'create' ? splitKeys(v.key).join('\n') : (v.key ?? '').trim(),
    models: v.models ?? [],
    model_agents: v.model_agents ?? [],
    quota: v.is_limit_quota ? (v.quota ?? 0) : 0,
    remark: v.remark ?? '',
  };
}

function KeyForm({ mode }: { mode: FormMode }) {
  const t = usePageLocale(locale);
  const { g, tk } = useGlobalLocale();
  const [form] = Form.useForm<Values>();
  const keyText = Form.useWatch('key', form);
  return (
    <ResourceForm<ModelKey, Values>
      prefix={KEY_PREFIX}
      mode={mode}
      listRoute="key.list"
      title={tk(`menu.key.${mode}`)}
      form={form}
      labelSpan={5}
      alsoInvalidate={[MODEL_AGENT_PREFIX]}
      initialValues={providerKeyResource.defaults()}
      toValues={toValues}
      toBody={toBody}
    >
      <Form.Item label={t('key.corp')} field="corp" rules={[required(t('key.corp.required'))]}>
        <CorpSelect data-testid="key-corp" />
      </Form.Item>
      {mode === 'create' ? (
        <Form.Item
          label={t('key.keys.create')}
          field="key"
          rules={[required(t('key.key.required')), zodRule(modelKeyCreateSchema.shape.key)]}
          extra={t('key.keys.extra', { count: splitKeys(keyText ?? '').length })}
        >
          <Input.TextArea placeholder={t('key.keys.placeholder')} autoSize={{ minRows: 4, maxRows: 14 }} style={{ fontFamily: 'monospace' }} data-testid="key-keys" />
        </Form.Item>
      ) : (
        <Form.Item shouldUpdate noStyle>
          {(values: Partial<Values>) => (
            <Form.Item label={t('key.key')} field="key" rules={[oneKeyRule]} extra={t('key.key.update.extra')}>
              <Input.Password visibilityToggle placeholder={values.key_mask} style={{ fontFamily: 'monospace' }} data-testid="key-key" />
            </Form.Item>
          )}
        </Form.Item>
      )}
      <Form.Item label={t('key.models')} field="models" extra={t('key.models.extra')}>
        <ModelSelect data-testid="key-models" />
      </Form.Item>
      <Form.Item label={t('key.modelAgents')} field="model_agents" extra={t('key.modelAgents.extra')}>
        <AgentSelect data-testid="key-model-agents" />
      </Form.Item>
      <Form.Item label={t('key.agentsOnly')} field="is_agents_only" triggerPropName="checked" extra={t('key.agentsOnly.extra')}>
        <Switch data-testid="key-agents-only" />
      </Form.Item>
      <Form.Item label={t('key.neverDisable')} field="is_never_disable" triggerPropName="checked" extra={t('key.neverDisable.extra')}>
        <Switch data-testid="key-never-disable" />
      </Form.Item>
      <Form.Item label={t('key.weight')} field="weight" rules={[{ required: true, type: 'number', min: 1, max: 100 }]} extra={t('key.weight.extra')}>
        <InputNumber min={1} max={100} precision={0} style={{ width: 220 }} data-testid="key-weight" />
      </Form.Item>
      <Form.Item label={t('key.limitQuota')} field="is_limit_quota" triggerPropName="checked" extra={t('key.limitQuota.extra')}>
        <Switch data-testid="key-limit-quota" />
      </Form.Item>
      <Form.Item shouldUpdate noStyle>
        {(values: Partial<Values>) =>
          values.is_limit_quota ? (
            <Form.Item label={t('key.quota')} field="quota" rules={[{ required: true, type: 'number', min: 0 }]}>
              <QuotaInput data-testid="key-quota" />
            </Form.Item>
          ) : null
        }
      </Form.Item>
      <Form.Item label={t('key.status')} field="status">
        <Select style={{ width: 220 }} data-testid="key-status">
          <Select.Option value={Status.Normal}>{g('resource.status.1')}</Select.Option>
          <Select.Option value={Status.Disabled}>{g('resource.status.2')}</Select.Option>
        </Select>
      </Form.Item>
      <Form.Item label={t('key.remark')} field="remark" rules={[{ maxLength: 500 }]}>
        <Input.TextArea maxLength={500} showWordLimit autoSize={{ minRows: 3, maxRows: 6 }} data-testid="key-remark" />
      </Form.Item>
    </ResourceForm>
  );
}

export const CreateKey = () => <KeyForm mode="create" />;
export const UpdateKey = () => <KeyForm mode="update" />;
