import { describe, expect, it } from 'vitest';
import { bodyBytes } from './upstream';

describe('bodyBytes', () => {
  it('gives every body the bytes of its UTF-8 encoding, copying the ASCII ones', () => {
    const bodies = ['', '{"model":"m"}', 'x'.repeat(200_000), '{"content":"naïve"}', 'caf\u00e9', '你好', '😀', '\u00ff', '\u0080', 'a\ud800b', JSON.stringify({ s: 'a\ud800b' })];
    for (const body of bodies) {
      const bytes = bodyBytes(body);
      // A string is left for undici to encode as UTF-8.
      expect(Buffer.from(bytes as string)).toEqual(Buffer.from(body, 'utf8'));
      expect(typeof bytes === 'string').toBe(/[^\0-\x7f]/.test(body));
    }
  });
});
