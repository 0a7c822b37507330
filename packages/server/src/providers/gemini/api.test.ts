import { describe, expect, it } from 'vitest';
import { geminiUrl, mapGeminiError } from './api';
import errors from './fixtures/errors.json';

const t = (baseUrl: string, path = '', model = 'gemini-2.0-flash') => ({ baseUrl, path, key: 'k', model });

describe('gemini URLs', () => {
  it('handles base URLs with and without a version', () => {
    expect(geminiUrl(t('https://generativelanguage.googleapis.com/'), false)).toBe('https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent');
    expect(geminiUrl(t('https://generativelanguage.googleapis.com/v1beta'), true)).toBe('https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse');
    expect(geminiUrl(t('https://proxy/google', '', 'models/gemini-pro'), false)).toBe('https://proxy/google/v1beta/models/gemini-pro:generateContent');
  });

  it('takes a version root or a full endpoint path from the agent', () => {
    expect(geminiUrl(t('https://g', '/v1'), true)).toBe('https://g/v1/models/gemini-2.0-flash:streamGenerateContent?alt=sse');
    expect(geminiUrl(t('https://g', '/api/{model}:generateContent'), false)).toBe('https://g/api/gemini-2.0-flash:generateContent');
    expect(geminiUrl(t('https://g', '/api/{model}:generateContent'), true)).toBe('https://g/api/gemini-2.0-flash:streamGenerateContent?alt=sse');
  });
});

describe('gemini mapError', () => {
  it('keeps the gRPC status as code', () => {
    expect(mapGeminiError(400, errors.bad_key.body)).toEqual({ status: 400, message: 'API key not valid. Please pass a valid API key.', type: 'invalid_request_error', code: 'INVALID_ARGUMENT' });
    expect(mapGeminiError(429, errors.exhausted.body)).toMatchObject({ type: 'rate_limit_error', code: 'RESOURCE_EXHAUSTED' });
    expect(mapGeminiError(503, errors.array_wrapped.body)).toMatchObject({ message: 'The model is overloaded. Please try again later.', code: 'UNAVAILABLE' });
  });

  it('handles non-JSON bodies', () => {
    expect(mapGeminiError(500, 'oops')).toEqual({ status: 500, message: 'oops', type: 'server_error', code: null });
  });
});
