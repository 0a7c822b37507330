import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../providers/types';
import { SAMPLES } from './test-samples';
import { countChatPrompt, countCompletion, countText, encodingFor, mergeUsage, needsLocalCount } from './tokens';

describe('encodingFor', () => {
  it('uses o200k for OpenAI 2024+ families, cl100k otherwise', () => {
    for (const m of ['gpt-4o', 'gpt-4o-mini', 'chatgpt-4o-latest', 'gpt-4.1-nano', 'gpt-5', 'gpt-5.1-codex', 'o1', 'o3-mini', 'o4-mini', 'openai/gpt-4o', 'gpt-oss-120b', 'gpt-image-1']) {
      expect(encodingFor(m), m).toBe('o200k_base');
    }
    for (const m of ['gpt-4', 'gpt-4-turbo', 'gpt-3.5-turbo', 'claude-3-5-sonnet', 'qwen-max', 'deepseek-chat', 'o1x', 'ollama', undefined]) {
      expect(encodingFor(m), String(m)).toBe('cl100k_base');
    }
  });
});

describe('countText', () => {
  it('counts with the model family encoding', () => {
    expect(countText('hello world')).toBe(2);
    expect(countText('')).toBe(0);
    expect(countText(null)).toBe(0);
    // CJK is cheaper in o200k
    expect(countText(SAMPLES.chinese, 'gpt-4o')).toBeLessThan(countText(SAMPLES.chinese, 'gpt-4'));
  });

  it('counts special tokens typed by a client as plain text instead of throwing', () => {
    expect(countText('hi <|endoftext|> there')).toBeGreaterThan(3);
    expect(countCompletion('<|im_start|>', 'gpt-4o')).toBeGreaterThan(1);
  });
});

describe('countChatPrompt (docs/ORIGINAL-GATEWAY.md §1.12 overhead)', () => {
  it('is Σ(3 + role + content [+ name + 1]) + 3', () => {
    expect(countChatPrompt([{ role: 'user', content: 'hello world' }])).toBe(3 + 1 + 2 + 3);
    const named: ChatMessage[] = [
      { role: 'system', content: 'hello world' },
      { role: 'user', name: 'bob', content: 'hello world' },
    ];
    expect(countChatPrompt(named)).toBe(3 + 1 + 2 + (3 + 1 + 2 + 1 + 1) + 3);
    expect(countChatPrompt([])).toBe(3);
  });

  it('counts every text part and a fixed amount per image (85 at low detail, 765 otherwise)', () => {
    const msgs: ChatMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'hello world' }, { type: 'image_url', image_url: { url: 'https://x/y.png', detail: 'low' } }] },
      { role: 'assistant', content: 'hello world' },
      { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }, { type: 'text', text: 'hello world' }] },
    ];
    expect(countChatPrompt(msgs)).toBe(3 + (4 + 2 + 85) + (4 + 2) + (4 + 765 + 2));
  });

  it('counts tool calls and tool definitions', () => {
    const msgs: ChatMessage[] = [
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: '18°C' },
    ];
    const base = countChatPrompt(msgs);
    expect(base).toBeGreaterThan(3 + 4 + 4);
    const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }];
    expect(countChatPrompt(msgs, undefined, tools)).toBeGreaterThan(base + 5);
  });

  it('counts a 2,000-token prompt in a few milliseconds', () => {
    const msgs: ChatMessage[] = [
      { role: 'system', content: SAMPLES.english },
      { role: 'user', content: SAMPLES.code + SAMPLES.json },
      { role: 'assistant', content: SAMPLES.chinese },
      { role: 'user', content: SAMPLES.english + SAMPLES.markdown },
    ];
    const tokens = countChatPrompt(msgs, 'gpt-4o');
    expect(tokens).toBeGreaterThan(1900);
    expect(tokens).toBeLessThan(2300);
    const time = (model: string) => {
      countChatPrompt(msgs, model); // warm: builds the encoder once
      const runs = 20;
      const start = performance.now();
      for (let i = 0; i < runs; i++) countChatPrompt([...msgs, { role: 'user', content: String(i) }], model);
      return (performance.now() - start) / runs;
    };
    const o200k = time('gpt-4o');
    const cl100k = time('gpt-4');
    console.info(`countChatPrompt: ${tokens} tokens, o200k ${o200k.toFixed(2)} ms, cl100k ${cl100k.toFixed(2)} ms per call`);
    expect(o200k).toBeLessThan(50);
    expect(cl100k).toBeLessThan(50);
  });
});

describe('mergeUsage', () => {
  const up = (p: number, c: number, more: object = {}) => ({ prompt_tokens: p, completion_tokens: c, total_tokens: p + c, ...more });

  it('rule 1 trusts a complete upstream usage, even when the local count differs', () => {
    expect(mergeUsage(up(100, 50, { cached_tokens: 64 }), { prompt: 130, completion: 70 }, 1, false)).toEqual(up(100, 50, { cached_tokens: 64 }));
    expect(needsLocalCount(up(100, 50), 1, false)).toBe(false);
  });

  it('rule 1 fills only the missing or zero side', () => {
    expect(mergeUsage(up(100, 0), { prompt: 130, completion: 70 }, 1, false)).toEqual(up(100, 70));
    expect(mergeUsage(up(0, 50), { prompt: 130, completion: 20 }, 1, false)).toEqual(up(130, 50));
    expect(mergeUsage(undefined, { prompt: 130, completion: 70 }, 1, false)).toEqual(up(130, 70));
    expect(needsLocalCount(up(100, 0), 1, false)).toBe(true);
    expect(needsLocalCount(undefined, 1, false)).toBe(true);
  });

  it('rule 1 on abort takes the larger count per side (partial upstream usage)', () => {
    expect(mergeUsage(up(100, 10), { prompt: 90, completion: 70 }, 1, true)).toEqual(up(100, 70));
    expect(needsLocalCount(up(100, 10), 1, true)).toBe(true);
  });

  it('rule 2 bills max(local, upstream) per side', () => {
    expect(mergeUsage(up(100, 50), { prompt: 130, completion: 20 }, 2, false)).toEqual(up(130, 50));
    expect(mergeUsage(undefined, { prompt: 5, completion: 6 }, 2, false)).toEqual(up(5, 6));
    expect(needsLocalCount(up(100, 50), 2, false)).toBe(true);
  });

  it('keeps the upstream breakdowns and guards bad numbers', () => {
    const audio = { prompt_tokens: 40, completion_tokens: 30 };
    expect(mergeUsage(up(100, 50, { audio }), { prompt: 1, completion: 1 }, 2, false)).toEqual(up(100, 50, { audio }));
    expect(mergeUsage(up(NaN, -3), { prompt: -1, completion: Infinity }, 1, false)).toEqual(up(0, 0));
  });
});
