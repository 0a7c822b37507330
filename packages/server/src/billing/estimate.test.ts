import { describe, expect, it } from 'vitest';
import { modelQuotasSchema, type ModelQuotas } from '@fastgate/core/entities/model-quota';
import type { ChatMessage, ChatRequest } from '../providers/types';
import { capCompletion, clampCompletion, completionBudget, completionCap, estimateChat, estimateEmbedding, estimateImage, estimatePromptTokens, estimateSpeech, estimateTranscription, fastTokens, maxAudioSeconds } from './estimate';
import { chatExtras } from './media';
import { priceChat, priceChatDearest, priceImage } from './price';
import { SAMPLES } from './test-samples';
import { countChatPrompt, countText } from './tokens';

const q = (raw: unknown): ModelQuotas => modelQuotasSchema.parse(raw);

describe('fastTokens', () => {
  it.each(Object.entries(SAMPLES))('is an upper bound of cl100k and o200k for %s', (_, text) => {
    const real = Math.max(countText(text, 'gpt-4'), countText(text, 'gpt-4o'));
    expect(fastTokens(text)).toBeGreaterThanOrEqual(real);
  });

  it('stays within ~2.5× of the real count for prose', () => {
    for (const key of ['english', 'chinese', 'japanese', 'korean', 'german', 'russian', 'code']) {
      const real = countText(SAMPLES[key], 'gpt-4');
      expect(fastTokens(SAMPLES[key]) / real, key).toBeLessThan(2.6);
    }
  });

  it('falls short by at most a third on the documented exceptions', () => {
    const archaic = '龘靐齉爩鱻麤灥龖厵驫鸞籲齾饕餮魑魅魍魉';
    const randomLower = Array.from({ length: 500 }, (_, i) => 'abcdefghijklmnopqrstuvwxyz'[(i * 7919 + 13) % 26]).join('');
    for (const text of [archaic, randomLower]) {
      const real = Math.max(countText(text, 'gpt-4'), countText(text, 'gpt-4o'));
      expect(fastTokens(text) / real).toBeGreaterThan(0.66);
    }
  });

  it('is 0 for nothing', () => {
    expect(fastTokens('')).toBe(0);
    expect(fastTokens(undefined)).toBe(0);
  });

  it('counts by its documented rules, unit by unit, whatever the mix', () => {
    // The rules of its comment as branches: the lookup tables must give the same sum on any text.
    const byRules = (text: string) => {
      let tenths = 0;
      let prev = 0;
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        let cls = 0;
        if (c >= 97 && c <= 122) {
          cls = 1;
          tenths += prev ? 4 : 10;
        } else if (c >= 65 && c <= 90) {
          cls = 2;
          tenths += prev === 2 ? 6 : 10;
        } else if (c === 32) tenths += 3;
        else if (c < 0x800) tenths += 10;
        else if (c >= 0xd800 && c <= 0xdbff) tenths += 30;
        else if (c < 0xdc00 || c > 0xdfff) tenths += 20;
        prev = cls;
      }
      return Math.ceil(tenths / 10);
    };
    // Units from every class and every boundary, lone surrogates included, in seeded random order.
    const units = [0, 9, 10, 31, 32, 33, 47, 48, 57, 64, 65, 66, 89, 90, 91, 96, 97, 98, 121, 122, 123, 127, 128, 255, 0x7ff, 0x800, 0x4e2d, 0xd7ff, 0xd800, 0xd83d, 0xdbff, 0xdc00, 0xde00, 0xdfff, 0xe000, 0xfffd, 0xffff];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let t = 0; t < 300; t++) {
      const text = String.fromCharCode(...Array.from({ length: next() % 200 }, () => units[next() % units.length]!));
      expect(fastTokens(text)).toBe(byRules(text));
    }
    for (const text of Object.values(SAMPLES)) expect(fastTokens(text)).toBe(byRules(text));
  });
});

const conversation = (text: string): ChatMessage[] => [
  { role: 'system', content: 'You are a helpful assistant.' },
  { role: 'user', content: text },
  { role: 'assistant', content: text.slice(0, 200) },
  { role: 'user', name: 'alice', content: [{ type: 'text', text }, { type: 'image_url', image_url: { url: 'https://x/y.png' } }] },
];

describe('estimatePromptTokens', () => {
  it.each(Object.entries(SAMPLES))('is ≥ the local count of a conversation in %s', (_, text) => {
    const msgs = conversation(text);
    expect(estimatePromptTokens(msgs)).toBeGreaterThanOrEqual(Math.max(countChatPrompt(msgs, 'gpt-4'), countChatPrompt(msgs, 'gpt-4o')));
  });
});

describe('completionBudget', () => {
  it('takes max_completion_tokens, then max_tokens, then the default; caps; × n', () => {
    expect(completionBudget({ max_completion_tokens: 100, max_tokens: 500 }, 4096, 1000)).toBe(100);
    expect(completionBudget({ max_tokens: 500 }, 4096, 1000)).toBe(500);
    expect(completionBudget({}, 4096, 100_000)).toBe(4096);
    expect(completionBudget({ max_tokens: 1e9 }, 4096, 32_768)).toBe(32_768);
    expect(completionBudget({ max_tokens: 100, n: 3 }, 4096, 1000)).toBe(300);
    expect(completionBudget({ max_tokens: NaN, n: -2 }, 4096, 1000)).toBe(1000);
  });
});

describe('priceChatDearest', () => {
  // What the estimate did before: every split of the usage priced, the dearest kept (ten pricings a call).
  const everySplit = (quotas: ModelQuotas, type: number, prompt: number, completion: number, discountBp: number) => {
    let best = 0;
    for (const promptAs of ['text', 'cached', 'cache_write', 'cache_write_1h', 'audio'] as const) {
      for (const completionAs of ['text', 'audio'] as const) {
        const usage = {
          prompt_tokens: prompt,
          completion_tokens: completion,
          total_tokens: prompt + completion,
          cached_tokens: promptAs === 'cached' ? prompt : 0,
          cache_write_tokens: promptAs === 'cache_write' || promptAs === 'cache_write_1h' ? prompt : 0,
          cache_write_1h_tokens: promptAs === 'cache_write_1h' ? prompt : 0,
          audio: { prompt_tokens: promptAs === 'audio' ? prompt : 0, completion_tokens: completionAs === 'audio' ? completion : 0 },
        };
        best = Math.max(best, priceChat({ quotas, type, usage, discountBp }).quota);
      }
    }
    return best;
  };

  it('is the dearest of every split, priced once', () => {
    const ratios = [0, 0.07, 0.5, 1, 1.25, 2.5, 3, 10, 40];
    let seed = 11;
    const r = () => ratios[(seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) % ratios.length]!;
    const text = () => ({ prompt_ratio: r() || 1, completion_ratio: r(), cached_ratio: r(), cache_write_ratio: r(), cache_write_1h_ratio: r() });
    for (let n = 0; n < 600; n++) {
      const tiers = n % 3 === 0 ? [{ above_tokens: 100, prompt_ratio: r(), completion_ratio: r(), cached_ratio: r() }] : undefined;
      const [quotas, type] = [
        [q({ text_quota: { ...text(), tiers } }), 1],
        [q({ text_quota: { ...text(), billing_method: 2, fixed_quota: 300 } }), 1],
        [q({ realtime_quota: { text_quota: text(), audio_quota: { prompt_ratio: r() || 1, completion_ratio: r() }, fixed_quota: n % 2 ? 50 : 0 } }), 101],
        [q({ multimodal_audio_quota: { text_quota: text(), audio_quota: { prompt_ratio: r() || 1, completion_ratio: r() } } }), 102],
        [q({ text_quota: text() }), 101],
      ][n % 5] as [ModelQuotas, number];
      const prompt = [0, 1, 37, 99, 100, 101, 5000][n % 7]!;
      const completion = [0, 1, 16, 4096][n % 4]!;
      const discountBp = [10_000, 8_500, 1][n % 3]!;
      const dearest = priceChatDearest({ quotas, type, prompt, completion, discountBp });
      expect(dearest.quota, JSON.stringify({ quotas, type, prompt, completion, discountBp })).toBe(everySplit(quotas, type, prompt, completion, discountBp));
    }
  });
});

describe('estimateChat', () => {
  const textModel = q({ text_quota: { prompt_ratio: 1.25, completion_ratio: 5, cached_ratio: 0.625 } });

  it('prices the estimated prompt and the completion budget, discounted', () => {
    const request: ChatRequest = { model: 'gpt-4o', messages: [{ role: 'user', content: 'hello world' }], max_tokens: 100 };
    const e = estimateChat({ quotas: textModel, type: 1, request, discountBp: 8000 });
    const prompt = 3 + 4 + fastTokens('hello world');
    expect(e).toMatchObject({ prompt_tokens: prompt, completion_tokens: 100, unpriced: false });
    expect(e.quota).toBe(Math.ceil(Math.ceil(prompt * 1.25 + 500) * 0.8));
  });

  it('is ≥ the settled charge for realistic requests', () => {
    for (const [key, text] of Object.entries(SAMPLES)) {
      const request: ChatRequest = { model: 'gpt-4o', messages: conversation(text), max_tokens: 800 };
      const estimate = estimateChat({ quotas: textModel, type: 1, request, discountBp: 9000 });
      for (const model of ['gpt-4', 'gpt-4o']) {
        const prompt = countChatPrompt(request.messages, model);
        const usage = { prompt_tokens: prompt, completion_tokens: 800, total_tokens: prompt + 800 };
        expect(estimate.quota, key).toBeGreaterThanOrEqual(priceChat({ quotas: textModel, type: 1, usage, discountBp: 9000 }).quota);
      }
    }
  });

  it('covers the most expensive split: cached at a higher ratio, audio tokens', () => {
    const odd = q({ text_quota: { prompt_ratio: 1, completion_ratio: 1, cached_ratio: 3 } });
    const request: ChatRequest = { model: 'm', messages: [{ role: 'user', content: SAMPLES.english }], max_tokens: 10 };
    const e = estimateChat({ quotas: odd, type: 1, request, discountBp: 10_000 });
    const allCached = { prompt_tokens: e.prompt_tokens, completion_tokens: 10, total_tokens: 0, cached_tokens: e.prompt_tokens };
    expect(e.quota).toBe(priceChat({ quotas: odd, type: 1, usage: allCached, discountBp: 10_000 }).quota);

    const realtime = q({ realtime_quota: { text_quota: { prompt_ratio: 2.5, completion_ratio: 10 }, audio_quota: { prompt_ratio: 20, completion_ratio: 40 } } });
    const r = estimateChat({ quotas: realtime, type: 101, request, discountBp: 10_000 });
    expect(r.quota).toBe(Math.ceil(r.prompt_tokens * 20 + 10 * 40));
  });

  it('adds multimodal extras the settle will charge', () => {
    const mm = q({ multimodal_quota: { text_quota: { prompt_ratio: 1, completion_ratio: 1 }, vision_quotas: [{ mode: 'auto', fixed_quota: 1000, is_default: true }], search_quotas: [{ search_context_size: 'medium', fixed_quota: 17500 }] } });
    const request: ChatRequest = { model: 'gpt-4o', messages: conversation('look at this'), max_tokens: 10, web_search_options: {} };
    expect(chatExtras(request)).toEqual({ images: [undefined], search: { calls: 1, context_size: 'medium' } });
    const e = estimateChat({ quotas: mm, type: 100, request, discountBp: 10_000 });
    expect(e.quota).toBe(e.prompt_tokens + 10 + 1000 + 17500);
  });

  it('uses the default budget when max_tokens is absent, and the fixed price for fixed billing', () => {
    const request: ChatRequest = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };
    expect(estimateChat({ quotas: textModel, type: 1, request, discountBp: 10_000, defaultMaxTokens: 1000 }).completion_tokens).toBe(1000);
    const fixed = q({ text_quota: { billing_method: 2, fixed_quota: 2500 } });
    expect(estimateChat({ quotas: fixed, type: 1, request, discountBp: 8000 }).quota).toBe(2000);
    expect(estimateChat({ quotas: q({}), type: 1, request, discountBp: 10_000 })).toMatchObject({ quota: 0, unpriced: true });
  });
});

describe('a chat budget that shrinks to a balance', () => {
  const textModel = q({ text_quota: { prompt_ratio: 1.25, completion_ratio: 5, cached_ratio: 0.625 } });
  const request: ChatRequest = { model: 'm', messages: [{ role: 'user', content: 'hello world' }], n: 2 };

  it('floors at the prompt and one token per choice; fits the most tokens per choice a smaller hold pays for', () => {
    const e = estimateChat({ quotas: textModel, type: 1, request, discountBp: 8000 });
    const price = (perChoice: number) => estimateChat({ quotas: textModel, type: 1, request: { ...request, max_tokens: perChoice }, discountBp: 8000 }).quota;
    expect(e.completion_tokens).toBe(2 * 4096);
    expect(e.floor).toBe(price(1));
    expect(e.fit(e.quota)).toBe(4096);
    expect(e.fit(e.floor)).toBe(1);
    expect(e.fit(e.floor - 1)).toBe(0);
    for (const q of [e.floor + 1, 777, 5000, e.quota - 1]) {
      const t = e.fit(q);
      expect(price(t), String(q)).toBeLessThanOrEqual(q);
      expect(price(t + 1), String(q)).toBeGreaterThan(q);
    }
  });

  it('fixed billing: any hold that pays the price fits the whole budget', () => {
    const fixed = estimateChat({ quotas: q({ text_quota: { billing_method: 2, fixed_quota: 2500 } }), type: 1, request, discountBp: 10_000 });
    expect(fixed).toMatchObject({ quota: 2500, floor: 2500 });
    expect(fixed.fit(2500)).toBe(4096);
  });

  it('caps the field the client used (max_tokens when none), never raising a smaller one', () => {
    const none: ChatRequest = { model: 'm', messages: [] };
    capCompletion(none, 50);
    expect(none).toMatchObject({ max_tokens: 50 });
    expect(none.max_completion_tokens).toBeUndefined();
    const both: ChatRequest = { model: 'm', messages: [], max_completion_tokens: 800, max_tokens: 20 };
    capCompletion(both, 50);
    expect(both).toMatchObject({ max_completion_tokens: 50, max_tokens: 20 });
    expect(completionCap(both)).toBe(50);
    expect(completionCap({ max_tokens: 0 })).toBeUndefined();
  });

  it('bills no completion past the limit sent (× n), details included', () => {
    const usage = { prompt_tokens: 10, completion_tokens: 900, total_tokens: 910, reasoning_tokens: 600, audio: { prompt_tokens: 0, completion_tokens: 300 } };
    expect(clampCompletion(usage, { max_tokens: 100, n: 2 })).toEqual({ prompt_tokens: 10, completion_tokens: 200, total_tokens: 210, reasoning_tokens: 200, audio: { prompt_tokens: 0, completion_tokens: 200 } });
    expect(clampCompletion(usage, { max_tokens: 1000 })).toBe(usage);
    expect(clampCompletion(usage, {})).toBe(usage);
  });
});

describe('estimate for other endpoints', () => {
  it('images: per-image price × n, or token billing with the largest output — whichever is more', () => {
    const table = q({ image_quota: { billing_method: 2, generation_quotas: [{ quality: 'hd', width: 1024, height: 1024, fixed_quota: 40000, is_default: true }] } });
    expect(estimateImage({ quotas: table, n: 2, size: '1024x1024', quality: 'hd', discountBp: 10_000 }).quota).toBe(80000);
    const tokens = q({ image_quota: { text_ratio: 2.5, input_ratio: 5, output_ratio: 20 } });
    const e = estimateImage({ quotas: tokens, n: 1, quality: 'high', prompt: 'a cat', discountBp: 10_000 });
    const settled = priceImage({ quotas: tokens, discountBp: 10_000, usage: { text_tokens: countText('a cat'), image_tokens: 0, output_tokens: 6240 } });
    expect(e.quota).toBeGreaterThanOrEqual(settled.quota);
  });

  it('embeddings count strings fast and token arrays exactly', () => {
    const quotas = q({ text_quota: { prompt_ratio: 0.05 } });
    const e = estimateEmbedding({ quotas, type: 7, input: [SAMPLES.english, SAMPLES.chinese], discountBp: 10_000 });
    expect(e.prompt_tokens).toBeGreaterThanOrEqual(countText(SAMPLES.english) + countText(SAMPLES.chinese));
    expect(estimateEmbedding({ quotas, type: 7, input: [1, 2, 3], discountBp: 10_000 }).prompt_tokens).toBe(3);
    expect(estimateEmbedding({ quotas, type: 7, input: [[1, 2], [3]], discountBp: 10_000 }).prompt_tokens).toBe(3);
  });

  it('speech is exact (code points), transcription uses an upper bound of seconds', () => {
    const tts = q({ audio_quota: { prompt_ratio: 7.5 } });
    expect(estimateSpeech({ quotas: tts, input: '你好😀', discountBp: 10_000 }).quota).toBe(23); // 3 × 7.5 = 22.5
    const stt = q({ audio_quota: { prompt_ratio: 50 } });
    expect(maxAudioSeconds(1_000_000)).toBe(500);
    expect(estimateTranscription({ quotas: stt, seconds: maxAudioSeconds(1_000_000), discountBp: 10_000 }).quota).toBe(25000);
  });
});
