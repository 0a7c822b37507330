// Corp create and update (one form, `mode` prop). docs/SPEC.md §5: name and code required, at most 100 characters.
import { Form, Input, InputNumber, Select, Switch } from '@arco-design/web-react';
import { CORP_CODES, CORP_PREFIX, corpResource, type Corp } from '@fastgate/core/entities/corp';
import type { Fields } from '@fastgate/core/resource';
import { Status } from '@fastgate/core/constants';
import { ResourceForm, type FormMode } from '../../components/ResourceForm';
import { required } from '../../components/rules';
import { useGlobalLocale, usePageLocale } from '../../locale';
import locale from './locale';

type Values = Fields<typeof corpResource>;

const MAX = 100;

function CorpForm({ mode }: { mode: FormMode }) {
  const t = usePageLocale(locale);
  const { g, tk } = useGlobalLocale();
  const max = { maxLength: MAX, message: t('corp.max100') };
  return (
    <ResourceForm<Corp, Values>
      prefix={CORP_PREFIX}
      mode={mode}
      listRoute="corp.list"
      title={tk(`menu.corp.${mode}`)}
      initialValues={corpResource.defaults()}
      toBody={(v) => ({ ...corpResource.pick(v), name: v.name.trim(), code: v.code.trim(), sort: v.sort ?? 0, remark: v.remark ?? '' })}
    >
      <Form.Item label={t('corp.name')} field="name" rules={[required(t('corp.name.required')), max]}>
        <Input maxLength={MAX} showWordLimit data-testid="corp-name" />
      </Form.Item>
      <Form.Item label={t('corp.code')} field="code" rules={[required(t('corp.code.required')), max]} extra={t('corp.code.extra')}>
        <Select allowCreate showSearch allowClear placeholder={t('corp.code.placeholder')} options={[...CORP_CODES]} data-testid="corp-code" />
      </Form.Item>
      <Form.Item label={t('corp.sort')} field="sort">
        <InputNumber min={0} max={1_000_000} precision={0} placeholder={t('corp.sort.placeholder')} style={{ width: 220 }} data-testid="corp-sort" />
      </Form.Item>
      <Form.Item label={t('corp.isPublic')} field="is_public" triggerPropName="checked" extra={t('corp.isPublic.extra')}>
        <Switch data-testid="corp-public" />
      </Form.Item>
      <Form.Item label={t('corp.status')} field="status">
        <Select style={{ width: 220 }} data-testid="corp-status">
          <Select.Option value={Status.Normal}>{g('resource.status.1')}</Select.Option>
          <Select.Option value={Status.Disabled}>{g('resource.status.2')}</Select.Option>
        </Select>
      </Form.Item>
      <Form.Item label={t('corp.remark')} field="remark" rules={[{ maxLength: 500 }]}>
        <Input.TextArea maxLength={500} showWordLimit autoSize={{ minRows: 3, maxRows: 6 }} data-testid="corp-remark" />
      </Form.Item>
    </ResourceForm>
  );
}

export const CreateCorp = () => <CorpForm mode="create" />;
export const UpdateCorp = () => <CorpForm mode="update" />;
