import { describe, expect, it } from 'vitest';
import type { UpstreamTarget } from '../types';
import { AZURE_API_VERSION } from './api';
import { azureAdapter } from './index';

const t = (baseUrl: string, path = '', model = 'gpt4o-prod'): UpstreamTarget => ({ baseUrl, path, key: 'az-key', model });
const chat = (target: UpstreamTarget, stream = false) => azureAdapter.chat.buildRequest(target, { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], stream, max_tokens: 9 });

describe('azure', () => {
  it('builds the deployment URL with the default api-version and the api-key header', () => {
    const r = chat(t('https://res.openai.azure.com/'));
    expect(r.url).toBe(`https://res.openai.azure.com/openai/deployments/gpt4o-prod/chat/completions?api-version=${AZURE_API_VERSION}`);
    expect(r.headers).toEqual({ 'api-key': 'az-key', 'content-type': 'application/json' });
    expect(r.headers).not.toHaveProperty('authorization');
  });

  it('does not double /openai in the base URL', () => {
    expect(chat(t('https://res.openai.azure.com/openai')).url).toBe(`https://res.openai.azure.com/openai/deployments/gpt4o-prod/chat/completions?api-version=${AZURE_API_VERSION}`);
  });

  it('takes api-version from an agent path that is only a query', () => {
    expect(chat(t('https://res.openai.azure.com', '?api-version=2025-01-01-preview')).url).toBe('https://res.openai.azure.com/openai/deployments/gpt4o-prod/chat/completions?api-version=2025-01-01-preview');
  });

  it('uses an agent path with a path part literally, with placeholders and a default version', () => {
    expect(chat(t('https://gw.example', '/openai/deployments/{deployment}/chat/completions')).url).toBe(`https://gw.example/openai/deployments/gpt4o-prod/chat/completions?api-version=${AZURE_API_VERSION}`);
    expect(chat(t('https://gw.example', '/az/chat?api-version=2024-06-01')).url).toBe('https://gw.example/az/chat?api-version=2024-06-01');
  });

  it('reuses the OpenAI body transforms (usage in streams, o-series renames)', () => {
    const body = JSON.parse(chat(t('https://res.openai.azure.com', '', 'o3-mini'), true).body);
    expect(body).toMatchObject({ model: 'o3-mini', stream: true, stream_options: { include_usage: true }, max_completion_tokens: 9 });
    expect(body).not.toHaveProperty('max_tokens');
  });

  it('passes other endpoints through to the deployment', () => {
    expect(azureAdapter.passthrough?.(t('https://res.openai.azure.com', '', 'emb'), 'embeddings', 'application/json')).toEqual({
      url: `https://res.openai.azure.com/openai/deployments/emb/embeddings?api-version=${AZURE_API_VERSION}`,
      headers: { 'api-key': 'az-key', 'content-type': 'application/json' },
    });
  });

  it('keeps only the api-version of an agent path for other endpoints', () => {
    expect(azureAdapter.passthrough?.(t('https://r', '/az/chat?api-version=2025-01-01-preview', 'emb'), 'embeddings', 'application/json').url).toBe('https://r/openai/deployments/emb/embeddings?api-version=2025-01-01-preview');
    expect(azureAdapter.passthrough?.(t('https://r', '/az/chat', 'emb'), 'embeddings', 'application/json').url).toBe(`https://r/openai/deployments/emb/embeddings?api-version=${AZURE_API_VERSION}`);
  });

  it('maps errors like OpenAI', () => {
    expect(azureAdapter.mapError(429, '{"error":{"code":"429","message":"Requests to the ChatCompletions_Create Operation have exceeded call rate limit"}}')).toMatchObject({ status: 429, type: 'rate_limit_error', code: '429' });
  });
});
