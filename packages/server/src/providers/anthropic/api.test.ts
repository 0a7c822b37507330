import { describe, expect, it } from 'vitest';
import { anthropicHeaders, anthropicUrl, countTokensUrl, mapAnthropicError } from './api';
import { ANTHROPIC_VERSION } from './wire';
import errors from './fixtures/errors.json';

const t = (baseUrl: string, path = '') => ({ baseUrl, path, key: 'k', model: 'm' });

describe('anthropic api', () => {
  it('resolves /v1/messages for both base URL styles and honours a path', () => {
    expect(anthropicUrl(t('https://api.anthropic.com'))).toBe('https://api.anthropic.com/v1/messages');
    expect(anthropicUrl(t('https://proxy/anthropic/v1/'))).toBe('https://proxy/anthropic/v1/messages');
    expect(anthropicUrl(t('https://proxy', '/claude/messages'))).toBe('https://proxy/claude/messages');
  });

  it('puts count_tokens beside messages', () => {
    expect(countTokensUrl(t('https://api.anthropic.com'))).toBe('https://api.anthropic.com/v1/messages/count_tokens');
    expect(countTokensUrl(t('https://proxy/anthropic/v1/'))).toBe('https://proxy/anthropic/v1/messages/count_tokens');
    expect(countTokensUrl(t('https://proxy', '/claude/messages/'))).toBe('https://proxy/claude/messages/count_tokens');
    expect(countTokensUrl(t('https://proxy', 'https://other/v1/messages?beta=true'))).toBe('https://other/v1/messages/count_tokens?beta=true');
  });

  it("forwards the client's anthropic-version and anthropic-beta, with our version by default", () => {
    const h = anthropicHeaders('k', { version: '2024-01-01', beta: 'prompt-caching-2024-07-31' });
    expect(h).toMatchObject({ 'anthropic-version': '2024-01-01', 'anthropic-beta': 'prompt-caching-2024-07-31' });
    expect(anthropicHeaders('k')).toMatchObject({ 'anthropic-version': ANTHROPIC_VERSION });
    expect(anthropicHeaders('k')).not.toHaveProperty('anthropic-beta');
  });

  it('maps Anthropic error bodies', () => {
    expect(mapAnthropicError(529, errors.overloaded.body)).toEqual({ status: 529, message: 'Overloaded', type: 'overloaded_error', code: null });
    expect(mapAnthropicError(401, errors.invalid_key.body)).toMatchObject({ type: 'authentication_error', message: 'invalid x-api-key' });
    expect(mapAnthropicError(400, errors.prompt_too_long.body)).toMatchObject({ type: 'invalid_request_error', message: expect.stringContaining('prompt is too long') as string });
  });

  it('maps non-JSON bodies', () => {
    expect(mapAnthropicError(529, 'Overloaded')).toEqual({ status: 529, message: 'Overloaded', type: 'overloaded_error', code: null });
    expect(mapAnthropicError(502, '')).toMatchObject({ type: 'api_error', message: 'upstream returned HTTP 502 with an empty body' });
    expect(mapAnthropicError(404, '{"unexpected":true}')).toMatchObject({ type: 'not_found_error' });
  });
});
