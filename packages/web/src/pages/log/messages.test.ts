import { describe, expect, it } from 'vitest';
import { contentText, hasMessages, messageTurns } from './messages';

describe('call-log messages as text', () => {
  it('reads role and string content', () => {
    expect(messageTurns([{ role: 'system', content: 'be brief' }, { role: 'user', content: '<b>hi</b>' }])).toEqual([
      { role: 'system', text: 'be brief' },
      { role: 'user', text: '<b>hi</b>' },
    ]);
  });

  it('joins text parts and shows other parts as JSON', () => {
    const content = [{ type: 'text', text: 'what is this?' }, { type: 'image_url', image_url: { url: 'https://x/y.png' } }];
    expect(contentText(content)).toBe('what is this?\n{"type":"image_url","image_url":{"url":"https://x/y.png"}}');
  });

  it('appends tool calls and decodes a JSON string', () => {
    const turns = messageTurns(JSON.stringify([{ role: 'assistant', content: null, tool_calls: [{ id: 'c1' }] }]));
    expect(turns).toEqual([{ role: 'assistant', text: '[\n  {\n    "id": "c1"\n  }\n]' }]);
  });

  it('gives null for anything that is not a list of turns', () => {
    expect(messageTurns('not json')).toBeNull();
    expect(messageTurns({ prompt: 'x' })).toBeNull();
    expect(messageTurns([{ content: 'no role' }])).toBeNull();
  });

  it('tells kept from not kept', () => {
    expect(hasMessages('')).toBe(false);
    expect(hasMessages(null)).toBe(false);
    expect(hasMessages([])).toBe(false);
    expect(hasMessages([{ role: 'user', content: 'x' }])).toBe(true);
  });
});
