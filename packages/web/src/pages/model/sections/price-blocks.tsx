// One component per price block of docs/ORIGINAL-API.md §3.5. Field paths are the wire's, with `*_ratio` entered as
// `*_price` ($ / 1M tokens, convert.ts); fixed quotas are units with a $ preview.
import { Form, Input, InputNumber, Radio, Select } from '@arco-design/web-react';
import { BillingMethod, BillingRule, IMAGE_QUALITIES, MIDJOURNEY_ACTIONS, QUOTA_UNITS, SEARCH_CONTEXT_SIZES, VISION_MODES } from '@fastgate/core/entities/model-quota';
import { QuotaInput } from '../../../components/QuotaInput';
import { required } from '../../../components/rules';
import { usePageLocale } from '../../../locale';
import locale from '../locale';
import { FixedQuotaField, PriceField, priceRule, quotaRule, SubTitle } from '../parts';
import { Cell, QuotaTable, TABLE_WRAPPER } from '../QuotaTable';

const id = (field: string) => field.replace(/\./g, '-');

function useBillingMethod(field: string): number | undefined {
  const { form } = Form.useFormContext();
  return Form.useWatch(field, form) as number | undefined;
}

function BillingMethodField({ field }: { field: string }) {
  const t = usePageLocale(locale);
  return (
    <Form.Item label={t('model.billingMethod')} field={field} rules={[required(t('model.billingMethod'))]}>
      <Radio.Group type="button" data-testid={id(field)}>
        <Radio value={BillingMethod.Ratio}>{t('model.billingMethod.1')}</Radio>
        <Radio value={BillingMethod.Fixed}>{t('model.billingMethod.2')}</Radio>
      </Radio.Group>
    </Form.Item>
  );
}

/**
 * text_quota and audio_quota (and the text part of multimodal): ratio prices or one fixed quota per call.
 * Token blocks also take cache prices (reads, 5-minute and 1-hour writes) and long-context tiers; audio_quota
 * prices characters or seconds, which no cache or context length touches.
 */
export function TextPrices({ base }: { base: string }) {
  const t = usePageLocale(locale);
  const method = useBillingMethod(`${base}.billing_method`);
  const tokens = base !== 'audio_quota';
  return (
    <>
      <BillingMethodField field={`${base}.billing_method`} />
      {method === BillingMethod.Fixed ? (
        <FixedQuotaField field={`${base}.fixed_quota`} label={t('model.fixedQuota')} isRequired extra={t('model.fixedQuota.extra')} testId={id(`${base}.fixed_quota`)} />
      ) : (
        <>
          <PriceField field={`${base}.prompt_price`} label={t('model.promptPrice')} isRequired extra={t('model.price.extra')} testId={id(`${base}.prompt_price`)} />
          <PriceField field={`${base}.completion_price`} label={t('model.completionPrice')} isRequired testId={id(`${base}.completion_price`)} />
          <PriceField field={`${base}.cached_price`} label={t('model.cachedPrice')} extra={tokens ? t('model.cachedPrice.extra') : undefined} testId={id(`${base}.cached_price`)} />
          {tokens && (
            <>
              <PriceField field={`${base}.cache_write_price`} label={t('model.cacheWritePrice')} extra={t('model.cacheWritePrice.extra')} testId={id(`${base}.cache_write_price`)} />
              <PriceField field={`${base}.cache_write_1h_price`} label={t('model.cacheWrite1hPrice')} extra={t('model.cacheWrite1hPrice.extra')} testId={id(`${base}.cache_write_1h_price`)} />
              <TierPrices base={base} />
            </>
          )}
        </>
      )}
    </>
  );
}

/** The prices a context tier may set, in table order; each column header is the price's short label. */
const TIER_PRICES = [
  ['prompt_price', 'model.price.prompt'],
  ['completion_price', 'model.price.completion'],
  ['cached_price', 'model.price.cached'],
  ['cache_write_price', 'model.price.cacheWrite'],
  ['cache_write_1h_price', 'model.price.cacheWrite1h'],
] as const;

/** Long-context tiers of a token block: a threshold and the prices above it ($ / 1M tokens; empty keeps the block's). */
function TierPrices({ base }: { base: string }) {
  const t = usePageLocale(locale);
  const testId = `${id(base)}-tiers`;
  return (
    <Form.Item label={t('model.tiers')} extra={t('model.tiers.extra')} wrapperCol={TABLE_WRAPPER}>
      <QuotaTable
        field={`${base}.tiers`}
        testId={testId}
        newRow={() => ({ above_tokens: 200_000 })}
        columns={[
          {
            key: 'above_tokens',
            title: t('model.tier.above'),
            width: 150,
            render: (f, i) => (
              <Cell field={`${f}.above_tokens`} rules={[required(t('model.tier.above')), { type: 'number', min: 1, max: 100_000_000 }]}>
                <InputNumber min={1} max={100_000_000} precision={0} style={{ width: 130 }} data-testid={`${testId}-above-${i}`} />
              </Cell>
            ),
          },
          ...TIER_PRICES.map(([k, label]) => ({
            key: k,
            title: `${t(label)} ($)`,
            width: 120,
            render: (f: string, i: number) => (
              <Cell field={`${f}.${k}`} rules={[priceRule(t('model.invalid'))]}>
                <InputNumber min={0} step={0.01} style={{ width: 105 }} data-testid={`${testId}-${k}-${i}`} />
              </Cell>
            ),
          })),
        ]}
      />
    </Form.Item>
  );
}

const quotaCell = (rowField: string, message: string, testId: string) => (
  <Cell field={`${rowField}.fixed_quota`} rules={[required(message), quotaRule(message)]}>
    <QuotaInput style={{ width: 140 }} data-testid={testId} />
  </Cell>
);

/** image_quota: per image by quality × size (fixed), or token ratios for token-priced image models. */
export function ImagePrices() {
  const t = usePageLocale(locale);
  const method = useBillingMethod('image_quota.billing_method');
  return (
    <>
      <BillingMethodField field="image_quota.billing_method" />
      {method === BillingMethod.Ratio ? (
        <>
          <PriceField field="image_quota.text_price" label={t('model.textPrice')} isRequired extra={t('model.price.extra')} testId="image_quota-text_price" />
          <PriceField field="image_quota.input_price" label={t('model.inputPrice')} isRequired testId="image_quota-input_price" />
          <PriceField field="image_quota.output_price" label={t('model.outputPrice')} isRequired testId="image_quota-output_price" />
          <PriceField field="image_quota.cached_price" label={t('model.cachedPrice')} testId="image_quota-cached_price" />
        </>
      ) : (
        <Form.Item label={t('model.generationQuotas')} required wrapperCol={TABLE_WRAPPER}>
          <QuotaTable
            field="image_quota.generation_quotas"
            testId="generation-quotas"
            requiredMessage={t('model.rows.required')}
            withDefault
            newRow={() => ({ quality: 'standard', width: 1024, height: 1024, is_default: false })}
            columns={[
              {
                key: 'quality',
                title: t('model.quality'),
                width: 140,
                render: (f) => (
                  <Cell field={`${f}.quality`}>
                    <Select allowCreate allowClear options={[...IMAGE_QUALITIES]} style={{ width: 120 }} />
                  </Cell>
                ),
              },
              ...(['width', 'height'] as const).map((k) => ({
                key: k,
                title: t(k === 'width' ? 'model.width' : 'model.height'),
                width: 110,
                render: (f: string) => (
                  <Cell field={`${f}.${k}`} rules={[required(t(k === 'width' ? 'model.width' : 'model.height'))]}>
                    <InputNumber min={0} max={100_000} precision={0} style={{ width: 90 }} />
                  </Cell>
                ),
              })),
              { key: 'fixed_quota', title: t('model.fixedQuota'), render: (f, i) => quotaCell(f, t('model.fixedQuota.required'), `generation-quota-${i}`) },
            ]}
          />
        </Form.Item>
      )}
    </>
  );
}

/** multimodal_quota: billing rule, text prices, vision prices by mode, and search (Google flat, OpenAI by size). */
export function MultimodalPrices({ search }: { search?: 'flat' | 'sizes' }) {
  const t = usePageLocale(locale);
  return (
    <>
      <Form.Item label={t('model.billingRule')} field="multimodal_quota.billing_rule">
        <Radio.Group type="button" data-testid="multimodal_quota-billing_rule">
          <Radio value={BillingRule.Official}>{t('model.billingRule.1')}</Radio>
          <Radio value={BillingRule.System}>{t('model.billingRule.2')}</Radio>
        </Radio.Group>
      </Form.Item>
      <TextPrices base="multimodal_quota.text_quota" />
      <Form.Item label={t('model.visionQuotas')} wrapperCol={TABLE_WRAPPER}>
        <QuotaTable
          field="multimodal_quota.vision_quotas"
          testId="vision-quotas"
          withDefault
          newRow={() => ({ mode: 'auto', is_default: false })}
          columns={[
            {
              key: 'mode',
              title: t('model.mode'),
              width: 140,
              render: (f, i) => (
                <Cell field={`${f}.mode`} rules={[required(t('model.mode'))]}>
                  <Select options={[...VISION_MODES]} style={{ width: 110 }} data-testid={`vision-mode-${i}`} />
                </Cell>
              ),
            },
            { key: 'fixed_quota', title: t('model.fixedQuota'), render: (f, i) => quotaCell(f, t('model.fixedQuota.required'), `vision-quota-${i}`) },
          ]}
        />
      </Form.Item>
      {search === 'flat' && <FixedQuotaField field="multimodal_quota.search_quota" label={t('model.searchQuota')} extra={t('model.searchQuota.extra')} testId="multimodal_quota-search_quota" />}
      {search === 'sizes' && (
        <Form.Item label={t('model.searchQuotas')} wrapperCol={TABLE_WRAPPER}>
          <QuotaTable
            field="multimodal_quota.search_quotas"
            testId="search-quotas"
            withDefault
            newRow={() => ({ search_context_size: 'medium', is_default: false })}
            columns={[
              {
                key: 'search_context_size',
                title: t('model.searchContextSize'),
                width: 160,
                render: (f, i) => (
                  <Cell field={`${f}.search_context_size`} rules={[required(t('model.searchContextSize'))]}>
                    <Select options={[...SEARCH_CONTEXT_SIZES]} style={{ width: 130 }} data-testid={`search-size-${i}`} />
                  </Cell>
                ),
              },
              { key: 'fixed_quota', title: t('model.fixedQuota'), render: (f, i) => quotaCell(f, t('model.fixedQuota.required'), `search-quota-${i}`) },
            ]}
          />
        </Form.Item>
      )}
    </>
  );
}

/** realtime_quota and multimodal_audio_quota: text and audio token prices, plus an optional per-call quota. */
export function MixedPrices({ base }: { base: 'realtime_quota' | 'multimodal_audio_quota' }) {
  const t = usePageLocale(locale);
  return (
    <>
      <SubTitle>{t('model.textPrices')}</SubTitle>
      <PriceField field={`${base}.text_quota.prompt_price`} label={t('model.promptPrice')} isRequired extra={t('model.price.extra')} testId={id(`${base}.text_quota.prompt_price`)} />
      <PriceField field={`${base}.text_quota.completion_price`} label={t('model.completionPrice')} isRequired testId={id(`${base}.text_quota.completion_price`)} />
      <PriceField field={`${base}.text_quota.cached_price`} label={t('model.cachedPrice')} testId={id(`${base}.text_quota.cached_price`)} />
      <SubTitle>{t('model.audioPrices')}</SubTitle>
      <PriceField field={`${base}.audio_quota.prompt_price`} label={t('model.audioPromptPrice')} isRequired testId={id(`${base}.audio_quota.prompt_price`)} />
      <PriceField field={`${base}.audio_quota.completion_price`} label={t('model.audioCompletionPrice')} isRequired testId={id(`${base}.audio_quota.completion_price`)} />
      <FixedQuotaField field={`${base}.fixed_quota`} label={t('model.fixedQuota')} extra={t('model.mixedFixedQuota.extra')} testId={id(`${base}.fixed_quota`)} />
    </>
  );
}

/** midjourney_quotas: a fixed quota per task action (corp code Midjourney). */
export function MidjourneyPrices() {
  const t = usePageLocale(locale);
  return (
    <Form.Item label={t('model.midjourneyQuotas')} required extra={t('model.midjourney.extra')} wrapperCol={TABLE_WRAPPER}>
      <QuotaTable
        field="midjourney_quotas"
        testId="midjourney-quotas"
        requiredMessage={t('model.rows.required')}
        newRow={() => ({ action: 'IMAGINE', name: '', path: '' })}
        columns={[
          {
            key: 'name',
            title: t('model.actionName'),
            width: 140,
            render: (f) => (
              <Cell field={`${f}.name`} rules={[required(t('model.actionName')), { maxLength: 100 }]}>
                <Input maxLength={100} style={{ width: 120 }} />
              </Cell>
            ),
          },
          {
            key: 'action',
            title: t('model.action'),
            width: 150,
            render: (f) => (
              <Cell field={`${f}.action`} rules={[required(t('model.action'))]}>
                <Select showSearch options={[...MIDJOURNEY_ACTIONS]} style={{ width: 140 }} />
              </Cell>
            ),
          },
          {
            key: 'path',
            title: t('model.actionPath'),
            width: 180,
            render: (f) => (
              <Cell field={`${f}.path`} rules={[{ maxLength: 300 }]}>
                <Input maxLength={300} placeholder="/mj/submit/imagine" style={{ width: 170 }} />
              </Cell>
            ),
          },
          { key: 'fixed_quota', title: t('model.fixedQuota'), render: (f, i) => quotaCell(f, t('model.fixedQuota.required'), `midjourney-quota-${i}`) },
        ]}
      />
    </Form.Item>
  );
}

/** Digital human, audio clone and video second creation: a fixed quota per unit of work. */
export function UnitPrices({ base }: { base: 'digital_human_quota' | 'audio_clone_quota' | 'video_second_creation_quota' }) {
  const t = usePageLocale(locale);
  return (
    <>
      <FixedQuotaField field={`${base}.fixed_quota`} label={t('model.unitQuota')} isRequired testId={id(`${base}.fixed_quota`)} />
      <Form.Item label={t('model.unit')} field={`${base}.unit`} rules={[required(t('model.unit'))]}>
        <Select style={{ width: 220 }} data-testid={id(`${base}.unit`)}>
          {QUOTA_UNITS.map((u) => (
            <Select.Option key={u} value={u}>
              {t(`model.unit.${u}`)}
            </Select.Option>
          ))}
        </Select>
      </Form.Item>
    </>
  );
}
