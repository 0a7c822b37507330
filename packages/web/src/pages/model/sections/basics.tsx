// Basics of a model (docs/ORIGINAL-API.md §3.5): corp, names, type, direct upstream, token limits, data formats,
// visibility, groups and status. Text limits are core's (name100, remark, base_url, path).
import { Form, Input, InputNumber, Radio, Select, Switch } from '@arco-design/web-react';
import { Status } from '@fastgate/core/constants';
import { GROUP_PREFIX } from '@fastgate/core/entities/group';
import { DataFormat, modelCreateSchema } from '@fastgate/core/entities/model';
import { CorpSelect } from '../../../components/CorpSelect';
import { ResourceSelect } from '../../../components/ResourceSelect';
import { required, schemaRule } from '../../../components/rules';
import { useGlobalLocale, usePageLocale } from '../../../locale';
import locale from '../locale';
import { useTypeOptions } from '../../../components/model-types';

const shape = modelCreateSchema.shape;

function DataFormatField({ field, label }: { field: string; label: string }) {
  const t = usePageLocale(locale);
  return (
    <Form.Item label={label} field={field}>
      <Radio.Group data-testid={`model-${field}`}>
        <Radio value={DataFormat.Unified}>{t('model.dataFormat.1')}</Radio>
        <Radio value={DataFormat.Official}>{t('model.dataFormat.2')}</Radio>
      </Radio.Group>
    </Form.Item>
  );
}

/** A token count the model declares; empty or 0 = not declared. The output limit fits in the window (core's refine). */
function TokenLimitField({ field, label, extra }: { field: 'context_window' | 'max_output_tokens'; label: string; extra: string }) {
  const t = usePageLocale(locale);
  const { form } = Form.useFormContext();
  const fitsWindow = {
    validator: (value: number | undefined, callback: (error?: string) => void) => {
      const window = Number(form.getFieldValue('context_window')) || 0;
      callback(field === 'max_output_tokens' && window > 0 && (value ?? 0) > window ? t('model.maxOutputTokens.tooLarge') : undefined);
    },
  };
  return (
    <Form.Item label={label} field={field} extra={extra} rules={[schemaRule(shape[field], t('model.invalid')), fitsWindow]} normalize={(v: number | undefined) => v ?? 0}>
      <InputNumber min={0} max={100_000_000} step={1024} precision={0} suffix="tokens" style={{ width: 260 }} data-testid={`model-${field}`} />
    </Form.Item>
  );
}

export function BasicsSection() {
  const t = usePageLocale(locale);
  const { g } = useGlobalLocale();
  const types = useTypeOptions();
  const invalid = t('model.invalid');
  return (
    <>
      <Form.Item label={t('model.corp')} field="corp" rules={[required(t('model.corp.required'))]}>
        <CorpSelect data-testid="model-corp" />
      </Form.Item>
      <Form.Item label={t('model.name')} field="name" rules={[required(t('model.name.required')), schemaRule(shape.name, t('model.max100'))]}>
        <Input maxLength={100} showWordLimit placeholder={t('model.name.placeholder')} data-testid="model-name" />
      </Form.Item>
      <Form.Item label={t('model.model')} field="model" rules={[required(t('model.model.required')), schemaRule(shape.model, t('model.max100'))]} extra={t('model.model.extra')}>
        <Input maxLength={100} showWordLimit placeholder={t('model.model.placeholder')} data-testid="model-model" />
      </Form.Item>
      <Form.Item label={t('model.type')} field="type" rules={[required(t('model.type.required'))]}>
        <Select showSearch options={types} style={{ width: 260 }} data-testid="model-type" />
      </Form.Item>
      <Form.Item label={t('model.baseUrl')} field="base_url" rules={[schemaRule(shape.base_url, invalid)]}>
        <Input maxLength={500} allowClear placeholder={t('model.baseUrl.placeholder')} data-testid="model-base_url" />
      </Form.Item>
      <Form.Item label={t('model.path')} field="path" rules={[schemaRule(shape.path, invalid)]}>
        <Input maxLength={300} allowClear placeholder={t('model.path.placeholder')} data-testid="model-path" />
      </Form.Item>
      <TokenLimitField field="context_window" label={t('model.contextWindow')} extra={t('model.contextWindow.extra')} />
      <TokenLimitField field="max_output_tokens" label={t('model.maxOutputTokens')} extra={t('model.maxOutputTokens.extra')} />
      <DataFormatField field="request_data_format" label={t('model.requestDataFormat')} />
      <DataFormatField field="response_data_format" label={t('model.responseDataFormat')} />
      <Form.Item label={t('model.isPublic')} field="is_public" triggerPropName="checked" extra={t('model.isPublic.extra')}>
        <Switch data-testid="model-public" />
      </Form.Item>
      <Form.Item label={t('model.groups')} field="groups" extra={t('model.groups.extra')}>
        <ResourceSelect<{ id: string; name: string }> prefix={GROUP_PREFIX} labelOf={(group) => group.name} mode="multiple" maxTagCount={8} placeholder={t('model.groups.placeholder')} data-testid="model-groups" />
      </Form.Item>
      <Form.Item label={t('model.status')} field="status">
        <Select style={{ width: 260 }} data-testid="model-status">
          <Select.Option value={Status.Normal}>{g('resource.status.1')}</Select.Option>
          <Select.Option value={Status.Disabled}>{g('resource.status.2')}</Select.Option>
        </Select>
      </Form.Item>
      <Form.Item label={t('model.remark')} field="remark" rules={[schemaRule(shape.remark, invalid)]}>
        <Input.TextArea maxLength={500} showWordLimit autoSize={{ minRows: 2, maxRows: 6 }} data-testid="model-remark" />
      </Form.Item>
    </>
  );
}
