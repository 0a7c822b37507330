import { describe, expect, it } from 'vitest';
import { ForwardRule, MatchRule } from '@fastgate/core/entities/catalogue';
import { MODEL_TYPES, modelCreateSchema, ModelType, type Model } from '@fastgate/core/entities/model';
import { BillingMethod } from '@fastgate/core/entities/model-quota';
import { forwardToBody, forwardToValues, newModelValues, pricesToRatios, ratiosToPrices, toFormValues, toRequestBody, type ModelFormValues } from './convert';
import { discounted, formatDollars, formatTokens, priceLines, priceToRatio, quotaKeyOf, ratioToPrice } from '../../components/price/pricing';

const base = (over: Partial<ModelFormValues> = {}): ModelFormValues => ({ ...newModelValues(), corp: 'c1', name: 'GPT', model: 'gpt-4o', ...over });

describe('prices and ratios', () => {
  it('converts $ / 1M tokens to ratios × 0.5 and back without float noise', () => {
    expect(priceToRatio(2)).toBe(1);
    expect(priceToRatio(6)).toBe(3);
    expect(priceToRatio(0.1)).toBe(0.05);
    expect(priceToRatio(3.75)).toBe(1.875);
    expect(ratioToPrice(1)).toBe(2);
    expect(ratioToPrice(0.05)).toBe(0.1);
    for (const p of [0.1, 0.3, 17.5, 12.5, 0.0015, 3.75, 0.075]) expect(ratioToPrice(priceToRatio(p))).toBe(p);
  });

  it('renames every *_ratio to *_price at any depth, and back', () => {
    const tiers = [{ above_tokens: 200_000, prompt_ratio: 3, completion_ratio: 0, cached_ratio: 0, cache_write_ratio: 0, cache_write_1h_ratio: 6 }];
    const block = { billing_rule: 1, text_quota: { billing_method: 1, prompt_ratio: 1, completion_ratio: 3, cached_ratio: 0.5, cache_write_ratio: 1.25, tiers, fixed_quota: 7 }, vision_quotas: [{ mode: 'low', fixed_quota: 10, is_default: true }] };
    const priced = ratiosToPrices(block);
    expect(priced).toEqual({
      billing_rule: 1,
      text_quota: {
        billing_method: 1,
        prompt_price: 2,
        completion_price: 6,
        cached_price: 1,
        cache_write_price: 2.5,
        tiers: [{ above_tokens: 200_000, prompt_price: 6, completion_price: 0, cached_price: 0, cache_write_price: 0, cache_write_1h_price: 12 }],
        fixed_quota: 7,
      },
      vision_quotas: [{ mode: 'low', fixed_quota: 10, is_default: true }],
    });
    expect(pricesToRatios(priced)).toEqual(block);
  });

  it('formats dollars without exponents', () => {
    expect(formatDollars(0.002)).toBe('$0.002');
    expect(formatDollars(0.0000015)).toBe('$0.0000015');
    expect(formatDollars(1234.5)).toBe('$1234.5');
  });
});

describe('request body', () => {
  it('sends only the block of the type, as ratios, and passes the core schema', () => {
    const body = toRequestBody(base({ text_quota: { billing_method: BillingMethod.Ratio, prompt_price: 2, completion_price: 6 }, is_public: true }), 'OpenAI');
    expect(body.text_quota).toEqual({ billing_method: 1, prompt_ratio: 1, completion_ratio: 3 });
    expect(body.image_quota).toBeUndefined();
    expect(body.multimodal_quota).toBeUndefined();
    const parsed = modelCreateSchema.parse(body);
    expect(parsed.text_quota).toEqual({ billing_method: 1, prompt_ratio: 1, completion_ratio: 3, cached_ratio: 0, fixed_quota: 0 });
    expect(parsed.forward_config).toEqual(undefined);
  });

  it('uses Midjourney prices for a Midjourney corp whatever the type', () => {
    const body = toRequestBody(base({ type: ModelType.TextToImage, midjourney_quotas: [{ name: '绘图', action: 'IMAGINE', path: '/mj/submit/imagine', fixed_quota: 50000 }] }), 'Midjourney');
    expect(body.midjourney_quotas).toHaveLength(1);
    expect(body.image_quota).toBeUndefined();
    expect(modelCreateSchema.safeParse(body).success).toBe(true);
  });

  it('gives a body the core schema accepts for every type, blank prices included', () => {
    for (const type of MODEL_TYPES) {
      for (const code of ['OpenAI', 'Midjourney']) {
        const body = toRequestBody(base({ type }), code);
        const parsed = modelCreateSchema.safeParse(body);
        expect(parsed.error?.issues ?? [], `type ${type} ${code}`).toEqual([]);
        expect(Object.keys(body).filter((k) => k.endsWith('_quota') || k.endsWith('_quotas'))).toEqual([quotaKeyOf(type, code)]);
      }
    }
  });

  it('drops cleared (null) inputs so the server defaults them', () => {
    const body = toRequestBody(base({ text_quota: { billing_method: BillingMethod.Ratio, prompt_price: 10, completion_price: 20, cached_price: null as unknown as number } }));
    expect(body.text_quota).toEqual({ billing_method: 1, prompt_ratio: 5, completion_ratio: 10 });
  });
});

describe('forwarding', () => {
  it('maps keyword rows to keywords and target_models by index; a keyword keeps its `|`', () => {
    const config = forwardToBody({
      forward_rule: ForwardRule.Keywords,
      all_mode: 'fixed',
      target_model: 'stale',
      match_rule: [MatchRule.Smart, MatchRule.Regex],
      decision_model: 'd',
      rows: [{ keyword: ' 画图|绘画 ', target_model: 'm1' }, { keyword: 'code', target_model: 'm2' }, {}],
      content_length: 99,
    });
    expect(config).toMatchObject({ forward_rule: 2, keywords: ['画图|绘画', 'code'], target_models: ['m1', 'm2'], target_model: '', decision_model: 'd', match_rule: [1, 2], content_length: 0 });
    const back = forwardToValues(config);
    expect(back.rows).toEqual([{ keyword: '画图|绘画', target_model: 'm1' }, { keyword: 'code', target_model: 'm2' }]);
  });

  it('rule "all" forwards to one model or round-robins over several', () => {
    const fixed = forwardToBody({ forward_rule: ForwardRule.All, all_mode: 'fixed', target_model: 't', target_models: ['a', 'b'], match_rule: [], rows: [] });
    expect(fixed).toMatchObject({ target_model: 't', target_models: [], keywords: [] });
    const rr = forwardToBody({ forward_rule: ForwardRule.All, all_mode: 'round_robin', target_model: 't', target_models: ['a', 'b'], match_rule: [], rows: [] });
    expect(rr).toMatchObject({ target_model: '', target_models: ['a', 'b'] });
    expect(forwardToValues(rr).all_mode).toBe('round_robin');
  });

  it('keeps complete settings when switched off and leaves incomplete ones out', () => {
    const on = toRequestBody(base({ is_enable_forward: false, forward: { ...newModelValues().forward, target_model: 'x' } }));
    expect(on.forward_config?.target_model).toBe('x');
    const off = toRequestBody(base({ is_enable_forward: false }));
    expect(off.forward_config).toBeUndefined();
  });
});

describe('form values from a detail row', () => {
  it('shows ratios as prices and blanks the blocks the model lacks', () => {
    const row = {
      id: 'm1', corp: 'c1', name: 'GPT', model: 'gpt', type: 1, status: 1, corp_name: 'OpenAI', corp_code: 'OpenAI', base_url: '', path: '', remark: '',
      request_data_format: 1, response_data_format: 1, is_public: true, groups: ['g'], group_names: ['G'], is_enable_preset_config: false,
      preset_config: { is_support_system_role: true, system_role_prompt: '', min_tokens: 0, max_tokens: 0, is_support_stream: true },
      is_enable_model_agent: false, lb_strategy: 1, model_agents: [], model_agent_names: [], upstream_wires: ['chat'], is_enable_forward: false, forward_config: null, context_window: 0, max_output_tokens: 0,
      is_enable_fallback: true, fallback_config: { model_agent: '', model: 'm2', model_agent_name: '', model_name: 'M2' }, created_at: '', updated_at: '',
      text_quota: { billing_method: 1, prompt_ratio: 1, completion_ratio: 3, cached_ratio: 0, fixed_quota: 0 },
    } satisfies Model;
    const v = toFormValues(row);
    expect(v.text_quota).toEqual({ billing_method: 1, prompt_price: 2, completion_price: 6, cached_price: 0, fixed_quota: 0 });
    expect(v.image_quota.generation_quotas).toHaveLength(1);
    expect(v.fallback_config).toEqual({ model_agent: undefined, model: 'm2' });
    expect(toRequestBody(v, 'OpenAI').text_quota).toEqual(row.text_quota);
  });
});

describe('price lines', () => {
  it('picks the block by type and corp', () => {
    expect(quotaKeyOf(ModelType.Text)).toBe('text_quota');
    expect(quotaKeyOf(ModelType.TextToImage)).toBe('image_quota');
    expect(quotaKeyOf(ModelType.TextToImage, 'midjourney')).toBe('midjourney_quotas');
    expect(quotaKeyOf(ModelType.VideoSecondCreation)).toBe('video_second_creation_quota');
  });

  it('shows ratio prices per 1M tokens and fixed prices per call, discounted on request', () => {
    const lines = priceLines({ type: 1, text_quota: { billing_method: 1, prompt_ratio: 1, completion_ratio: 3, cached_ratio: 0, fixed_quota: 0 } });
    expect(lines).toEqual([{ label: 'prompt', usd: 2, per: '1m' }, { label: 'completion', usd: 6, per: '1m' }]);
    expect(discounted(lines, 0.8).map((l) => l.usd)).toEqual([1.6, 4.8]);
    expect(priceLines({ type: 1, text_quota: { billing_method: 2, prompt_ratio: 0, completion_ratio: 0, cached_ratio: 0, fixed_quota: 10_000 } })).toEqual([{ label: 'fixed', usd: 0.02, per: 'call' }]);
    const image = priceLines({ type: 2, image_quota: { billing_method: 2, generation_quotas: [{ quality: 'hd', width: 1024, height: 1024, fixed_quota: 40_000, is_default: false }, { quality: 'standard', width: 1024, height: 1024, fixed_quota: 20_000, is_default: true }], text_ratio: 0, input_ratio: 0, output_ratio: 0, cached_ratio: 0, fixed_quota: 0 } });
    expect(image).toEqual([{ label: 'image', usd: 0.04, per: 'image', more: 1, detail: 'standard 1024×1024' }]);
  });

  it('lists cache prices and each context tier’s prices that are set', () => {
    const tiers = [{ above_tokens: 200_000, prompt_ratio: 3, completion_ratio: 11.25, cached_ratio: 0, cache_write_ratio: 0, cache_write_1h_ratio: 0 }];
    const text_quota = { billing_method: 1 as const, prompt_ratio: 1.5, completion_ratio: 7.5, cached_ratio: 0.15, cache_write_ratio: 1.875, cache_write_1h_ratio: 3, tiers, fixed_quota: 0 };
    expect(priceLines({ type: 1, text_quota })).toEqual([
      { label: 'prompt', usd: 3, per: '1m' },
      { label: 'completion', usd: 15, per: '1m' },
      { label: 'cached', usd: 0.3, per: '1m' },
      { label: 'cacheWrite', usd: 3.75, per: '1m' },
      { label: 'cacheWrite1h', usd: 6, per: '1m' },
      { label: 'prompt', usd: 6, per: '1m', above: 200_000 },
      { label: 'completion', usd: 22.5, per: '1m', above: 200_000 },
    ]);
    expect([formatTokens(200_000), formatTokens(1_000_000), formatTokens(128_500), formatTokens(42)]).toEqual(['200K', '1M', '128.5K', '42']);
  });
});
