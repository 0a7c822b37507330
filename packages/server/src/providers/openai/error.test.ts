import { describe, expect, it } from 'vitest';
import { mapOpenAIError } from './error';
import errors from './fixtures/errors.json';

describe('openai mapError', () => {
  it('reads the OpenAI error body', () => {
    expect(mapOpenAIError(errors.invalid_key.status, errors.invalid_key.body)).toEqual({
      status: 401,
      message: expect.stringContaining('Incorrect API key provided') as string,
      type: 'invalid_request_error',
      code: 'invalid_api_key',
    });
    expect(mapOpenAIError(errors.quota.status, errors.quota.body)).toMatchObject({ status: 429, type: 'insufficient_quota', code: 'insufficient_quota' });
  });

  it('fills a null type from the status (Azure content filter)', () => {
    expect(mapOpenAIError(400, errors.azure_content_filter.body)).toMatchObject({ type: 'invalid_request_error', code: 'content_filter' });
  });

  it('reads other JSON shapes of compatible hosts', () => {
    expect(mapOpenAIError(422, errors.fastapi_detail.body)).toEqual({ status: 422, message: 'model not found', type: 'invalid_request_error', code: null });
    expect(mapOpenAIError(400, '{"error":"bad model"}')).toMatchObject({ message: 'bad model' });
    expect(mapOpenAIError(429, '{"message":"slow down","code":1302}')).toMatchObject({ message: 'slow down', type: 'rate_limit_error', code: '1302' });
  });

  it('handles non-JSON bodies', () => {
    expect(mapOpenAIError(502, errors.nginx_html.body)).toEqual({ status: 502, message: 'upstream returned HTTP 502 (HTML page: 502 Bad Gateway)', type: 'server_error', code: null });
    expect(mapOpenAIError(503, errors.plain_text.body).message).toBe(errors.plain_text.body);
    expect(mapOpenAIError(500, '').message).toBe('upstream returned HTTP 500 with an empty body');
    expect(mapOpenAIError(500, 'x'.repeat(2000)).message).toHaveLength(501);
  });
});
