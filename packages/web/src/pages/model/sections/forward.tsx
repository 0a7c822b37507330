// Model forwarding (docs/ORIGINAL-GATEWAY.md §1.4): all requests (to one model or several in turn), by keyword
// (one keyword → target model per row; `|` inside a keyword reads "or"; regex and/or smart matching with a
// decision model), or by content length. The rules mirror core's forwardConfigSchema checks.
import { Checkbox, Form, Input, InputNumber, Radio, Select } from '@arco-design/web-react';
import { ForwardRule, MatchRule } from '@fastgate/core/entities/catalogue';
import { required } from '../../../components/rules';
import { usePageLocale } from '../../../locale';
import type { AllMode } from '../convert';
import locale from '../locale';
import { Cell, QuotaTable, TABLE_WRAPPER } from '../QuotaTable';
import { ModelPicker, Toggle } from './routing';

const RULES = [ForwardRule.All, ForwardRule.Keywords, ForwardRule.ContentLength] as const;

function ForwardSettings({ self }: { self?: string }) {
  const t = usePageLocale(locale);
  const { form } = Form.useFormContext();
  const rule = Form.useWatch('forward.forward_rule', form) as number | undefined;
  const allMode = Form.useWatch('forward.all_mode', form) as AllMode | undefined;
  const match = (Form.useWatch('forward.match_rule', form) as number[] | undefined) ?? [];
  const target = (
    <Form.Item label={t('model.targetModel')} field="forward.target_model" rules={[required(t('model.targetModel.required'))]}>
      <ModelPicker self={self} style={{ width: 360 }} data-testid="forward-target" />
    </Form.Item>
  );
  return (
    <>
      <Form.Item label={t('model.forwardRule')} field="forward.forward_rule" rules={[required(t('model.forwardRule'))]}>
        <Select style={{ width: 260 }} data-testid="forward-rule">
          {RULES.map((r) => (
            <Select.Option key={r} value={r}>
              {t(`model.forwardRule.${r}`)}
            </Select.Option>
          ))}
        </Select>
      </Form.Item>
      {rule === ForwardRule.All && (
        <>
          <Form.Item label={t('model.allMode')} field="forward.all_mode">
            <Radio.Group data-testid="forward-all-mode">
              <Radio value="fixed">{t('model.allMode.fixed')}</Radio>
              <Radio value="round_robin">{t('model.allMode.round_robin')}</Radio>
            </Radio.Group>
          </Form.Item>
          {allMode === 'round_robin' ? (
            <Form.Item label={t('model.targetModels')} field="forward.target_models" rules={[required(t('model.targetModels.required'))]}>
              <ModelPicker self={self} mode="multiple" maxTagCount={8} data-testid="forward-targets" />
            </Form.Item>
          ) : (
            target
          )}
        </>
      )}
      {rule === ForwardRule.Keywords && (
        <>
          <Form.Item label={t('model.matchRule')} field="forward.match_rule" rules={[required(t('model.matchRule.required'))]}>
            <Checkbox.Group data-testid="forward-match">
              <Checkbox value={MatchRule.Regex}>{t('model.matchRule.2')}</Checkbox>
              <Checkbox value={MatchRule.Smart}>{t('model.matchRule.1')}</Checkbox>
            </Checkbox.Group>
          </Form.Item>
          {match.includes(MatchRule.Smart) && (
            <Form.Item label={t('model.decisionModel')} field="forward.decision_model" rules={[required(t('model.decisionModel.required'))]} extra={t('model.decisionModel.extra')}>
              <ModelPicker self={self} style={{ width: 360 }} data-testid="forward-decision" />
            </Form.Item>
          )}
          <Form.Item label={t('model.keywords')} required extra={t('model.keywords.extra')} wrapperCol={TABLE_WRAPPER}>
            <QuotaTable
              field="forward.rows"
              testId="forward-keywords"
              requiredMessage={t('model.keywords.required')}
              newRow={() => ({})}
              columns={[
                {
                  key: 'keyword',
                  title: t('model.keyword'),
                  width: 260,
                  render: (f, i) => (
                    <Cell field={`${f}.keyword`} rules={[required(t('model.keyword.required')), { maxLength: 500 }]}>
                      <Input maxLength={500} placeholder={t('model.keyword.placeholder')} style={{ width: 220 }} data-testid={`keyword-${i}`} />
                    </Cell>
                  ),
                },
                {
                  key: 'target_model',
                  title: t('model.targetModel'),
                  render: (f, i) => (
                    <Cell field={`${f}.target_model`} rules={[required(t('model.targetModel.required'))]}>
                      <ModelPicker self={self} style={{ width: 280 }} data-testid={`keyword-target-${i}`} />
                    </Cell>
                  ),
                },
              ]}
            />
          </Form.Item>
        </>
      )}
      {rule === ForwardRule.ContentLength && (
        <>
          <Form.Item label={t('model.contentLength')} field="forward.content_length" rules={[required(t('model.contentLength.required'))]} extra={t('model.contentLength.extra')}>
            <InputNumber min={1} max={10_000_000} precision={0} style={{ width: 260 }} data-testid="forward-length" />
          </Form.Item>
          {target}
        </>
      )}
    </>
  );
}

export function ForwardSection({ self }: { self?: string }) {
  const t = usePageLocale(locale);
  return (
    <Toggle field="is_enable_forward" label={t('model.isEnableForward')} testId="model-forward-on">
      <ForwardSettings self={self} />
    </Toggle>
  );
}
