import { describe, expect, it } from 'vitest';
import { modelQuotasSchema, type ModelQuotas } from '@fastgate/core/entities/model-quota';
import { billingRuleOf, parseSize, priceChat, priceEmbedding, priceImage, priceSpeech, priceTranscription, priceUnit, priceUnitFor } from './price';

/** Quotas as the console stores them (schema defaults filled in). */
const q = (raw: unknown): ModelQuotas => modelQuotasSchema.parse(raw);
const usage = (prompt: number, completion: number, more: object = {}) => ({ prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, ...more });
const text = (t: object) => q({ text_quota: t });

describe('priceChat: ratio billing', () => {
  const quotas = text({ prompt_ratio: 0.25, completion_ratio: 1 });

  it('ceil(1234 × 0.25 + 567 × 1) = 876, at 80 % → ceil(700.8) = 701', () => {
    const p = priceChat({ quotas, type: 1, usage: usage(1234, 567), discountBp: 8000 });
    expect(p.quota).toBe(701);
    expect(p).toMatchObject({ prompt_ratio: 0.25, completion_ratio: 1, unpriced: false });
    expect(p.detail).toMatchObject({ block: 'text_quota', method: 'ratio', base_quota: 876, discount_bp: 8000 });
    expect(priceChat({ quotas, type: 1, usage: usage(1234, 567), discountBp: 10_000 }).quota).toBe(876);
  });

  it('prices cached prompt tokens at cached_ratio', () => {
    const cached = text({ prompt_ratio: 0.25, completion_ratio: 1, cached_ratio: 0.125 });
    // 234 × 0.25 + 1000 × 0.125 + 567 = 58.5 + 125 + 567 = 750.5 → 751
    const p = priceChat({ quotas: cached, type: 1, usage: usage(1234, 567, { cached_tokens: 1000 }), discountBp: 10_000 });
    expect(p.quota).toBe(751);
    expect(p.detail.items.map((i) => [i.kind, i.quantity])).toEqual([['input', 234], ['cached_input', 1000], ['output', 567]]);
  });

  it('falls back to prompt_ratio when cached_ratio is 0, and caps cached at prompt', () => {
    expect(priceChat({ quotas, type: 1, usage: usage(1234, 567, { cached_tokens: 1000 }), discountBp: 10_000 }).quota).toBe(876);
    expect(priceChat({ quotas, type: 1, usage: usage(100, 0, { cached_tokens: 5000 }), discountBp: 10_000 }).quota).toBe(25);
  });

  it('rounds a discount up: 1 unit at 1 % is still 1', () => {
    expect(priceChat({ quotas, type: 1, usage: usage(1, 1), discountBp: 100 }).quota).toBe(1); // ceil(1.25)=2 → ceil(0.02)=1
    expect(priceChat({ quotas, type: 1, usage: usage(1, 1), discountBp: 0 }).quota).toBe(0);
  });

  it('charges 0 for zero prices (not unpriced) and flags a model without a block', () => {
    const free = priceChat({ quotas: text({}), type: 1, usage: usage(1000, 1000), discountBp: 10_000 });
    expect(free).toMatchObject({ quota: 0, unpriced: false });
    const none = priceChat({ quotas: q({}), type: 1, usage: usage(1000, 1000), discountBp: 10_000 });
    expect(none).toMatchObject({ quota: 0, unpriced: true, prompt_ratio: 0, completion_ratio: 0 });
    expect(none.detail.block).toBeNull();
    expect(priceChat({ quotas: undefined, type: 100, usage: usage(1, 1), discountBp: 10_000 }).unpriced).toBe(true);
  });

  it('guards NaN and negative usage', () => {
    const p = priceChat({ quotas, type: 1, usage: usage(NaN, -5, { cached_tokens: -1 }), discountBp: NaN });
    expect(p.quota).toBe(0);
    expect(Number.isSafeInteger(p.quota)).toBe(true);
  });

  it('clamps absurd totals to a safe integer', () => {
    const p = priceChat({ quotas: text({ prompt_ratio: 1e9 }), type: 1, usage: usage(1e12, 0), discountBp: 10_000 });
    expect(p.quota).toBe(Number.MAX_SAFE_INTEGER);
  });
});

describe('priceChat: fixed billing', () => {
  it('charges fixed_quota per call, discounted and rounded up', () => {
    const quotas = text({ billing_method: 2, fixed_quota: 1000, prompt_ratio: 5 });
    expect(priceChat({ quotas, type: 1, usage: usage(100_000, 100_000), discountBp: 8500 }).quota).toBe(850);
    const p = priceChat({ quotas, type: 1, usage: usage(0, 0), discountBp: 3333 });
    expect(p.quota).toBe(334);
    expect(p.detail.method).toBe('fixed');
  });
});

describe('priceChat: multimodal (type 100)', () => {
  const quotas = q({
    text_quota: { prompt_ratio: 99 }, // not used for type 100
    multimodal_quota: {
      text_quota: { prompt_ratio: 1.25, completion_ratio: 5 },
      vision_quotas: [
        { mode: 'low', fixed_quota: 100 },
        { mode: 'high', fixed_quota: 300, is_default: true },
      ],
      search_quota: 2000,
      search_quotas: [{ search_context_size: 'medium', fixed_quota: 17500 }],
    },
  });

  it('uses multimodal_quota.text_quota and adds one vision price per image (default row for a missing mode)', () => {
    // 100 × 1.25 + 10 × 5 = 175; images: low 100 + high 300 + auto→default 300 = 700
    const p = priceChat({ quotas, type: 100, usage: usage(100, 10), discountBp: 10_000, extras: { images: ['low', 'high', undefined] } });
    expect(p.quota).toBe(875);
    expect(p.detail.block).toBe('multimodal_quota');
    expect(p.detail.items.filter((i) => i.kind === 'image_input').reduce((s, i) => s + i.quota, 0)).toBe(700);
    expect(p.prompt_ratio).toBe(1.25);
  });

  it('prices web search by context size, else the flat search_quota', () => {
    expect(priceChat({ quotas, type: 100, usage: usage(0, 0), discountBp: 10_000, extras: { search: { calls: 1, context_size: 'medium' } } }).quota).toBe(17500);
    // no row for 'high' and no default row → flat
    expect(priceChat({ quotas, type: 100, usage: usage(0, 0), discountBp: 10_000, extras: { search: { calls: 1, context_size: 'high' } } }).quota).toBe(2000);
    expect(priceChat({ quotas, type: 100, usage: usage(0, 0), discountBp: 5000, extras: { search: { calls: 2 } } }).quota).toBe(2000);
  });

  it('ignores extras for models without a multimodal block', () => {
    const p = priceChat({ quotas: text({ prompt_ratio: 1 }), type: 1, usage: usage(10, 0), discountBp: 10_000, extras: { images: ['low'], search: { calls: 1 } } });
    expect(p.quota).toBe(10);
  });

  it('falls back to text_quota when the type has no block of its own', () => {
    const p = priceChat({ quotas: text({ prompt_ratio: 2 }), type: 100, usage: usage(10, 0), discountBp: 10_000 });
    expect(p).toMatchObject({ quota: 20, detail: { block: 'text_quota' } });
  });
});

describe('priceChat: realtime and multimodal speech (101, 102)', () => {
  const mixed = { text_quota: { prompt_ratio: 0.5, completion_ratio: 2 }, audio_quota: { prompt_ratio: 10, completion_ratio: 20 } };

  it('prices the audio share by audio_quota and the rest by text_quota', () => {
    const u = usage(1000, 500, { cached_tokens: 100, audio: { prompt_tokens: 600, completion_tokens: 300 } });
    // text in 400 (300 uncached × 0.5 + 100 cached × 0.5) + text out 200 × 2 + audio 600 × 10 + 300 × 20
    const expected = 150 + 50 + 400 + 6000 + 6000;
    expect(priceChat({ quotas: q({ realtime_quota: mixed }), type: 101, usage: u, discountBp: 10_000 }).quota).toBe(expected);
    const p = priceChat({ quotas: q({ multimodal_audio_quota: mixed }), type: 102, usage: u, discountBp: 10_000 });
    expect(p).toMatchObject({ quota: expected, detail: { block: 'multimodal_audio_quota' } });
    expect(Object.fromEntries(p.detail.items.map((i) => [i.kind, i.quantity]))).toEqual({ input: 300, cached_input: 100, audio_input: 600, output: 200, audio_output: 300 });
  });

  it('bills audio as text for other types', () => {
    const u = usage(1000, 0, { audio: { prompt_tokens: 600, completion_tokens: 0 } });
    expect(priceChat({ quotas: text({ prompt_ratio: 0.5 }), type: 1, usage: u, discountBp: 10_000 }).quota).toBe(500);
  });

  it('fixed billing takes the block fixed_quota, else text_quota.fixed_quota', () => {
    const fixed = { ...mixed, text_quota: { billing_method: 2, fixed_quota: 7 }, fixed_quota: 900 };
    expect(priceChat({ quotas: q({ realtime_quota: fixed }), type: 101, usage: usage(1, 1), discountBp: 10_000 }).quota).toBe(900);
    const textOnly = { ...fixed, fixed_quota: 0 };
    expect(priceChat({ quotas: q({ realtime_quota: textOnly }), type: 101, usage: usage(1, 1), discountBp: 10_000 }).quota).toBe(7);
  });
});

describe('priceImage', () => {
  const quotas = q({
    image_quota: {
      billing_method: 2,
      generation_quotas: [
        { quality: 'hd', width: 1024, height: 1024, fixed_quota: 40000, is_default: true },
        { quality: 'standard', width: 1024, height: 1024, fixed_quota: 20000 },
        { quality: '', width: 512, height: 512, fixed_quota: 5000 },
        { quality: 'standard', width: 1792, height: 1024, fixed_quota: 30000 },
      ],
      fixed_quota: 1,
    },
  });
  const img = (size: string | undefined, quality: string | undefined, n = 1, bp = 10_000) => priceImage({ quotas, n, size, quality, discountBp: bp }).quota;

  it('matches quality and size exactly, × n, discounted', () => {
    expect(img('1024x1024', 'standard', 2)).toBe(40000);
    expect(img('1792×1024', 'standard')).toBe(30000);
    expect(img('1024*1024', 'HD', 3, 8000)).toBe(96000);
  });

  it('lets an empty-quality row match any quality, then the default row', () => {
    expect(img('512x512', 'hd')).toBe(5000);
    expect(img('512x512', undefined)).toBe(5000);
    expect(img('256x256', 'standard')).toBe(40000); // default
    expect(img('1792x1024', 'hd')).toBe(40000); // no hd row at this size
    expect(img('auto', 'auto')).toBe(40000);
  });

  it('falls back to image_quota.fixed_quota without a default row', () => {
    const noDefault = q({ image_quota: { billing_method: 2, generation_quotas: [{ quality: 'hd', width: 1, height: 1, fixed_quota: 9 }], fixed_quota: 123 } });
    expect(priceImage({ quotas: noDefault, size: '1024x1024', discountBp: 10_000 }).quota).toBe(123);
  });

  it('treats a missing or invalid n as 1', () => {
    expect(img('1024x1024', 'standard', NaN)).toBe(20000);
    expect(img('1024x1024', 'standard', 0)).toBe(20000);
  });

  it('prices token usage for ratio-billed image models', () => {
    const ratio = q({ image_quota: { text_ratio: 2.5, input_ratio: 5, output_ratio: 20, fixed_quota: 999 } });
    // 100 × 2.5 + 200 × 5 + 4160 × 20
    const p = priceImage({ quotas: ratio, discountBp: 10_000, usage: { text_tokens: 100, image_tokens: 200, output_tokens: 4160 } });
    expect(p.quota).toBe(250 + 1000 + 83200);
    expect(priceImage({ quotas: ratio, discountBp: 10_000 }).quota).toBe(999);
  });

  it('flags a model without image_quota', () => {
    expect(priceImage({ quotas: q({}), n: 1, size: '1024x1024', discountBp: 10_000 })).toMatchObject({ quota: 0, unpriced: true });
  });

  it('parses sizes', () => {
    expect(parseSize(' 1024 x 768 ')).toEqual({ width: 1024, height: 768 });
    expect(parseSize('1024X768')).toEqual({ width: 1024, height: 768 });
    expect(parseSize('1024')).toBeUndefined();
    expect(parseSize(undefined)).toBeUndefined();
  });
});

describe('other endpoints', () => {
  it('embeddings: prompt tokens × prompt_ratio; 103 by multimodal_quota', () => {
    expect(priceEmbedding({ quotas: text({ prompt_ratio: 0.05 }), type: 7, prompt_tokens: 1001, discountBp: 10_000 }).quota).toBe(51); // 50.05
    const mm = q({ text_quota: { prompt_ratio: 1 }, multimodal_quota: { text_quota: { prompt_ratio: 0.1 } } });
    expect(priceEmbedding({ quotas: mm, type: 103, prompt_tokens: 1000, discountBp: 10_000 }).quota).toBe(100);
    expect(priceEmbedding({ quotas: text({ billing_method: 2, fixed_quota: 42 }), type: 7, prompt_tokens: 1e6, discountBp: 10_000 }).quota).toBe(42);
  });

  it('speech per character, transcription per second (audio_quota.prompt_ratio)', () => {
    // $0.015 / 1K characters = 7.5 quota per character
    const tts = q({ audio_quota: { prompt_ratio: 7.5 } });
    expect(priceSpeech({ quotas: tts, characters: 1001, discountBp: 10_000 }).quota).toBe(7508); // 7507.5
    // $0.006 / minute = 0.0001 $/s = 50 quota per second
    const stt = q({ audio_quota: { prompt_ratio: 50 } });
    expect(priceTranscription({ quotas: stt, seconds: 12.5, discountBp: 8000 }).quota).toBe(500);
    expect(priceTranscription({ quotas: q({ audio_quota: { billing_method: 2, fixed_quota: 300 } }), seconds: 999, discountBp: 10_000 }).quota).toBe(300);
    expect(priceSpeech({ quotas: q({}), characters: 10, discountBp: 10_000 }).unpriced).toBe(true);
  });

  it('unit blocks: fixed_quota per unit, fractional units rounded up once', () => {
    expect(priceUnit({ fixed_quota: 1000, unit: 'second' }, 12.5, 9000).quota).toBe(11250);
    expect(priceUnit({ fixed_quota: 333, unit: 'minute' }, 0.5).quota).toBe(167);
    expect(priceUnit(undefined, 5).unpriced).toBe(true);
    const quotas = q({ audio_clone_quota: { fixed_quota: 5000, unit: 'call' } });
    expect(priceUnitFor({ quotas, type: 1001, units: 1, discountBp: 10_000 })).toMatchObject({ quota: 5000, detail: { block: 'audio_clone_quota' } });
    expect(priceUnitFor({ quotas, type: 1000, units: 1, discountBp: 10_000 }).unpriced).toBe(true);
  });

  it('billing rule comes from multimodal_quota', () => {
    expect(billingRuleOf(q({ multimodal_quota: { billing_rule: 2 } }))).toBe(2);
    expect(billingRuleOf(q({}))).toBe(1);
  });
});
