// Line items of a chat price (issue 13): every detail of the canonical usage priced once, exact to the unit.
// Prices as an admin enters them in $ / 1M tokens: ratio = $ per 1M × 0.5 (500000 units = $1).
import { describe, expect, it } from 'vitest';
import { modelQuotasSchema, type ModelQuotas } from '@fastgate/core/entities/model-quota';
import type { LineItem } from '@fastgate/core/entities/call-log';
import { estimateChat } from './estimate';
import { priceChat, type BillableUsage } from './price';

const q = (raw: unknown): ModelQuotas => modelQuotasSchema.parse(raw);
const usage = (prompt: number, completion: number, more: Partial<BillableUsage> = {}): BillableUsage => ({ prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, ...more });
const perM = (usd: number) => usd / 2;
const sum = (items: readonly LineItem[]) => items.reduce((s, i) => s + i.quantity * i.unit_price, 0);

/** Claude Sonnet 4.5: $3 in, $15 out, $0.30 cache read, $3.75 5-minute and $6 1-hour cache writes; above 200K
 *  input tokens $6 in, $22.50 out, $0.60 read, $7.50 and $12 writes. */
const sonnet = q({
  text_quota: {
    prompt_ratio: perM(3),
    completion_ratio: perM(15),
    cached_ratio: perM(0.3),
    cache_write_ratio: perM(3.75),
    cache_write_1h_ratio: perM(6),
    tiers: [{ above_tokens: 200_000, prompt_ratio: perM(6), completion_ratio: perM(22.5), cached_ratio: perM(0.6), cache_write_ratio: perM(7.5), cache_write_1h_ratio: perM(12) }],
  },
});

describe('priceChat line items', () => {
  it('prices input, cache reads, 5-minute and 1-hour cache writes, output and reasoning apart', () => {
    // prompt 10000 = 2000 input + 6000 read + 1500 written for 5 min + 500 for 1 h; completion 1000 = 600 + 400 reasoning
    const u = usage(10_000, 1_000, { cached_tokens: 6_000, cache_write_tokens: 2_000, cache_write_1h_tokens: 500, reasoning_tokens: 400 });
    const p = priceChat({ quotas: sonnet, type: 1, usage: u, discountBp: 10_000 });
    // 2000 × 1.5 + 6000 × 0.15 + 1500 × 1.875 + 500 × 3 + 600 × 7.5 + 400 × 7.5 = 3000 + 900 + 2812.5 + 1500 + 4500 + 3000
    expect(p.detail.base_quota).toBe(15_713);
    expect(p.quota).toBe(15_713);
    expect(p.detail.items).toEqual([
      { kind: 'input', unit: 'token', quantity: 2000, unit_price: 1.5, quota: 3000 },
      { kind: 'cached_input', unit: 'token', quantity: 6000, unit_price: 0.15, quota: 900 },
      { kind: 'cache_write_5m', unit: 'token', quantity: 1500, unit_price: 1.875, quota: 2812.5 },
      { kind: 'cache_write_1h', unit: 'token', quantity: 500, unit_price: 3, quota: 1500 },
      { kind: 'output', unit: 'token', quantity: 600, unit_price: 7.5, quota: 4500 },
      { kind: 'reasoning', unit: 'token', quantity: 400, unit_price: 7.5, quota: 3000 },
    ]);
    // The discount applies once to the rounded sum: ceil(15713 × 0.8) = ceil(12570.4).
    expect(priceChat({ quotas: sonnet, type: 1, usage: u, discountBp: 8000 }).quota).toBe(12_571);
  });

  it('prices the whole call by the context tier once the prompt passes its threshold (not at it)', () => {
    const at = priceChat({ quotas: sonnet, type: 1, usage: usage(200_000, 1_000), discountBp: 10_000 });
    expect(at.quota).toBe(200_000 * 1.5 + 1_000 * 7.5);
    expect(at.detail.items?.every((i) => i.tier === undefined)).toBe(true);
    // 250000 = 180000 input + 50000 read + 20000 written (5 min), 2000 out: 180000 × 3 + 50000 × 0.3 + 20000 × 3.75 + 2000 × 11.25
    const above = priceChat({ quotas: sonnet, type: 1, usage: usage(250_000, 2_000, { cached_tokens: 50_000, cache_write_tokens: 20_000 }), discountBp: 10_000 });
    expect(above.quota).toBe(540_000 + 15_000 + 75_000 + 22_500);
    expect(above.detail.items).toEqual([
      { kind: 'input', unit: 'token', quantity: 180_000, unit_price: 3, quota: 540_000, tier: 200_000 },
      { kind: 'cached_input', unit: 'token', quantity: 50_000, unit_price: 0.3, quota: 15_000, tier: 200_000 },
      { kind: 'cache_write_5m', unit: 'token', quantity: 20_000, unit_price: 3.75, quota: 75_000, tier: 200_000 },
      { kind: 'output', unit: 'token', quantity: 2_000, unit_price: 11.25, quota: 22_500, tier: 200_000 },
    ]);
    // The log's ratios are the ones that priced the call.
    expect(above).toMatchObject({ prompt_ratio: 3, completion_ratio: 11.25 });
  });

  it('takes the highest tier passed; a tier ratio left at 0 keeps the block’s', () => {
    const gemini = q({ text_quota: { prompt_ratio: 1, completion_ratio: 4, cached_ratio: 0.25, tiers: [{ above_tokens: 1_000_000, prompt_ratio: 5 }, { above_tokens: 100, prompt_ratio: 2 }] } });
    // 150 prompt, tier 100 only: 100 × 2 + 50 cached × the block's 0.25 + 10 out × the block's 4 = 252.5
    expect(priceChat({ quotas: gemini, type: 1, usage: usage(150, 10, { cached_tokens: 50 }), discountBp: 10_000 }).quota).toBe(253);
    expect(priceChat({ quotas: gemini, type: 1, usage: usage(1_000_001, 0), discountBp: 10_000 }).quota).toBe(5_000_005);
  });

  it('falls back: writes at prompt_ratio, 1-hour writes at cache_write_ratio (the totals of models priced before)', () => {
    const plain = q({ text_quota: { prompt_ratio: 2, completion_ratio: 4 } });
    const u = usage(1_000, 100, { cached_tokens: 300, cache_write_tokens: 200, cache_write_1h_tokens: 50 });
    expect(priceChat({ quotas: plain, type: 1, usage: u, discountBp: 10_000 }).quota).toBe(2_000 + 400);
    const oneWritePrice = q({ text_quota: { prompt_ratio: 2, completion_ratio: 4, cache_write_ratio: 2.5 } });
    // 500 input × 2 + 300 read × 2 + 200 writes × 2.5 (5 min and 1 h alike) + 100 × 4
    expect(priceChat({ quotas: oneWritePrice, type: 1, usage: u, discountBp: 10_000 }).quota).toBe(1_000 + 600 + 500 + 400);
  });

  it('never counts a token twice, whatever the upstream claims', () => {
    const u = usage(100, 10, { cached_tokens: 80, cache_write_tokens: 500, cache_write_1h_tokens: 900, reasoning_tokens: 50 });
    const p = priceChat({ quotas: sonnet, type: 1, usage: u, discountBp: 10_000 });
    const qty = Object.fromEntries((p.detail.items ?? []).map((i) => [i.kind, i.quantity]));
    expect(qty).toEqual({ cached_input: 80, cache_write_1h: 20, reasoning: 10 });
    expect(p.quota).toBe(Math.ceil(80 * 0.15 + 20 * 3 + 10 * 7.5));
    const junk = usage(100, 10, { cached_tokens: -5, cache_write_tokens: NaN, reasoning_tokens: Infinity });
    expect(priceChat({ quotas: sonnet, type: 1, usage: junk, discountBp: 10_000 }).quota).toBe(Math.ceil(100 * 1.5 + 10 * 7.5));
  });

  it('prices a stored block without the new fields (models saved before) as before', () => {
    const old = { text_quota: { billing_method: 1, prompt_ratio: 1, completion_ratio: 2, cached_ratio: 0, fixed_quota: 0 } } as unknown as ModelQuotas;
    const p = priceChat({ quotas: old, type: 1, usage: usage(100, 10, { cached_tokens: 40, cache_write_tokens: 30, reasoning_tokens: 5 }), discountBp: 10_000 });
    expect(p.quota).toBe(120);
  });

  it('adds the mixed block’s per-call fee to token prices, and lists vision and search', () => {
    const realtime = q({ realtime_quota: { text_quota: { prompt_ratio: 1, completion_ratio: 2 }, audio_quota: { prompt_ratio: 10, completion_ratio: 20 }, fixed_quota: 250 } });
    const p = priceChat({ quotas: realtime, type: 101, usage: usage(100, 10, { audio: { prompt_tokens: 60, completion_tokens: 5 } }), discountBp: 10_000 });
    // 40 text in + 60 audio × 10 + 5 text out × 2 + 5 audio × 20 + 250 per call
    expect(p.quota).toBe(40 + 600 + 10 + 100 + 250);
    expect(p.detail.items?.at(-1)).toEqual({ kind: 'request', unit: 'call', quantity: 1, unit_price: 250, quota: 250 });
    const mm = q({ multimodal_quota: { text_quota: { prompt_ratio: 1 }, vision_quotas: [{ mode: 'low', fixed_quota: 100 }, { mode: 'high', fixed_quota: 300, is_default: true }], search_quota: 2000 } });
    const v = priceChat({ quotas: mm, type: 100, usage: usage(10, 0), discountBp: 10_000, extras: { images: ['low', 'high', undefined], search: { calls: 1 } } });
    expect(v.quota).toBe(10 + 100 + 600 + 2000);
    expect(v.detail.items).toEqual([
      { kind: 'input', unit: 'token', quantity: 10, unit_price: 1, quota: 10 },
      { kind: 'image_input', unit: 'image', quantity: 1, unit_price: 100, quota: 100, detail: 'low' },
      { kind: 'image_input', unit: 'image', quantity: 2, unit_price: 300, quota: 600, detail: 'high' },
      { kind: 'search', unit: 'search', quantity: 1, unit_price: 2000, quota: 2000 },
    ]);
  });

  it('charges the searches the upstream reports, when it reports them', () => {
    const mm = q({ multimodal_quota: { text_quota: { prompt_ratio: 1 }, search_quota: 2000 } });
    const price = (calls: number | undefined) => priceChat({ quotas: mm, type: 100, usage: usage(10, 0, calls === undefined ? {} : { search_calls: calls }), discountBp: 10_000, extras: { search: { calls: 1 } } }).quota;
    expect(price(undefined)).toBe(2010);
    expect(price(3)).toBe(6010);
    expect(price(0)).toBe(10);
  });

  it('keeps the items summing to the base, before its one rounding', () => {
    const u = usage(12_345, 678, { cached_tokens: 1_111, cache_write_tokens: 2_222, cache_write_1h_tokens: 333, reasoning_tokens: 77 });
    const p = priceChat({ quotas: sonnet, type: 1, usage: u, discountBp: 10_000 });
    expect(p.detail.base_quota).toBe(Math.ceil(sum(p.detail.items ?? []) - 1e-9));
  });

  it('reserves enough for a prompt written whole to the cache, the dearest reading (1-hour writes at twice the input)', () => {
    const request = { model: 'claude', messages: [{ role: 'user' as const, content: 'x'.repeat(4000) }], max_tokens: 100 };
    const est = estimateChat({ quotas: sonnet, type: 1, request, discountBp: 10_000 });
    const settled = (more: Partial<BillableUsage>) => priceChat({ quotas: sonnet, type: 1, usage: usage(est.prompt_tokens, est.completion_tokens, more), discountBp: 10_000 }).quota;
    const all = est.prompt_tokens;
    for (const split of [{}, { cached_tokens: all }, { cache_write_tokens: all }, { cache_write_tokens: all, cache_write_1h_tokens: all }]) expect(est.quota).toBeGreaterThanOrEqual(settled(split));
    expect(est.quota).toBe(settled({ cache_write_tokens: all, cache_write_1h_tokens: all }));
  });
});
