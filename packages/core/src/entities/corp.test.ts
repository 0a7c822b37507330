import { describe, expect, it } from 'vitest';
import { familyOfCorpCode, isCorpCode } from './corp';

describe('familyOfCorpCode', () => {
  it('reads a typed code trimmed and in any case, with the accepted aliases', () => {
    expect(familyOfCorpCode(' azure ')).toBe('azure');
    expect(familyOfCorpCode('ANTHROPIC')).toBe('anthropic');
    expect(familyOfCorpCode('Claude')).toBe('anthropic');
    expect(familyOfCorpCode('google')).toBe('gemini');
    expect(familyOfCorpCode('\tGemini')).toBe('gemini');
  });

  it('sends every other code, the empty one too, through the OpenAI protocol', () => {
    for (const code of ['OpenAI', 'DeepSeek', 'Other', '', 'azure-openai', 'claude 3']) expect(familyOfCorpCode(code)).toBe('openai');
  });

  it('agrees with isCorpCode on the console codes', () => {
    expect(isCorpCode(' aZuRe', 'Azure')).toBe(true);
    expect(familyOfCorpCode(' aZuRe')).toBe('azure');
  });
});
