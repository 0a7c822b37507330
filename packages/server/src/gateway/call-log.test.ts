import { describe, expect, it } from 'vitest';
import type { LineItem } from '@fastgate/core/entities/call-log';
import { modelQuotasSchema } from '@fastgate/core/entities/model-quota';
import { priceChat } from '../billing/price';
import { lineItemsJson } from './call-log';

describe('lineItemsJson', () => {
  it("writes what JSON.stringify writes for the prices' own items", () => {
    const quotas = modelQuotasSchema.parse({ text_quota: { prompt_ratio: 0.37, completion_ratio: 1.1, cached_ratio: 0.037, tiers: [{ above_tokens: 200_000, prompt_ratio: 0.75, completion_ratio: 2.2 }] } });
    for (const usage of [
      { prompt_tokens: 1234, completion_tokens: 567, total_tokens: 1801 },
      { prompt_tokens: 250_000, completion_tokens: 3, total_tokens: 250_003, cached_tokens: 1000, reasoning_tokens: 2 },
    ]) {
      const items = priceChat({ quotas, type: 1, usage, discountBp: 8000 }).detail.items;
      expect(items.length).toBeGreaterThan(1);
      expect(lineItemsJson(items)).toBe(JSON.stringify(items));
    }
  });

  it('writes every field of the shape, encodes a detail, and leaves an unknown kind or unit to JSON.stringify', () => {
    const items: LineItem[] = [
      { kind: 'image_input', unit: 'image', quantity: 2, unit_price: 1e-7, quota: 2.000000001, tier: 128_000, detail: 'high "quality" \u2028 \\ 高' },
      { kind: 'request', unit: 'call', quantity: 1, unit_price: -0, quota: Number.NaN },
    ];
    expect(lineItemsJson(items)).toBe(JSON.stringify(items));
    expect(JSON.parse(lineItemsJson(items))).toEqual([items[0], { ...items[1], unit_price: 0, quota: null }]);
    const odd = [{ ...items[1], unit: 'fortnight"' } as unknown as LineItem];
    expect(lineItemsJson(odd)).toBe(JSON.stringify(odd));
    expect(lineItemsJson([])).toBe('[]');
  });
});
