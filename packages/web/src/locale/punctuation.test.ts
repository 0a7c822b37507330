// Every zh-CN string of the console and of the server's messages: no half-width `,:;!?()` touching
// Chinese text (docs/SPEC.md §9 wording; issue 15 part 8).
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { messages } from '@fastgate/core/messages';
import { mixedPunctuation } from './punctuation';

type Table = Record<string, string>;
const tables: Record<string, Table> = {};

beforeAll(async () => {
  // The locale module reads the stored language when it loads.
  vi.stubGlobal('localStorage', { getItem: () => null, setItem: () => undefined, removeItem: () => undefined });
  tables['locale/zh-CN.ts'] = (await import('./zh-CN')).zhCN;
  const pages = import.meta.glob<{ default: { 'zh-CN': Table } }>('../**/locale.ts');
  for (const [path, load] of Object.entries(pages)) tables[path] = (await load()).default['zh-CN'];
  tables['core/messages.ts'] = Object.fromEntries(Object.entries(messages).map(([key, [zh]]) => [key, zh]));
});

describe('zh-CN punctuation', () => {
  it('reads every table', () => {
    expect(Object.keys(tables).length).toBeGreaterThan(25);
  });

  it('uses full-width punctuation next to Chinese text', () => {
    const mixed = Object.entries(tables).flatMap(([file, table]) =>
      Object.entries(table).flatMap(([key, text]) => mixedPunctuation(text).map((at) => `${file} ${key}: …${at}…`)),
    );
    expect(mixed).toEqual([]);
  });

  it('tells mixing from Latin, URLs and placeholders', () => {
    expect(mixedPunctuation('例如 OpenAI, Anthropic')).toEqual([]);
    expect(mixedPunctuation('地址 https://example.com:8080')).toEqual([]);
    expect(mixedPunctuation('{count} 个，共 {total}')).toEqual([]);
    expect(mixedPunctuation('额度（$）')).toEqual([]);
    expect(mixedPunctuation('名称, 必填')).toHaveLength(1);
    expect(mixedPunctuation('额度($)')).toHaveLength(1);
    expect(mixedPunctuation('请输入: {name}')).toHaveLength(1);
  });
});
