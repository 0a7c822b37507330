import { describe, expect, it } from 'vitest';
import type { UpstreamTarget } from '../types';
import { openaiAdapter } from './index';

const t = (baseUrl: string, path = ''): UpstreamTarget => ({ baseUrl, path, key: 'sk-test', model: 'm' });
const chatUrl = (target: UpstreamTarget) => openaiAdapter.chat.buildRequest(target, { model: 'x', messages: [] }).url;

describe('openai URLs', () => {
  it.each([
    ['https://api.openai.com', 'https://api.openai.com/v1/chat/completions'],
    ['https://api.openai.com/', 'https://api.openai.com/v1/chat/completions'],
    ['https://host/v1', 'https://host/v1/chat/completions'],
    ['https://host/v1/', 'https://host/v1/chat/completions'],
    ['https://proxy.example/openai', 'https://proxy.example/openai/v1/chat/completions'],
    ['https://open.bigmodel.cn/api/paas/v4', 'https://open.bigmodel.cn/api/paas/v4/chat/completions'],
    ['https://ark.cn-beijing.volces.com/api/v3', 'https://ark.cn-beijing.volces.com/api/v3/chat/completions'],
  ])('%s → %s', (base, url) => expect(chatUrl(t(base))).toBe(url));

  it('uses an agent path literally', () => {
    expect(chatUrl(t('https://host', '/api/chat'))).toBe('https://host/api/chat');
    expect(chatUrl(t('https://host/v1', '/v1/chat/completions'))).toBe('https://host/v1/chat/completions');
    expect(chatUrl(t('https://host/v1', '/v2/chat'))).toBe('https://host/v1/v2/chat');
    expect(chatUrl(t('https://host', 'custom/chat'))).toBe('https://host/custom/chat');
    expect(chatUrl(t('https://host', 'https://other/x'))).toBe('https://other/x');
  });

  it('builds passthrough requests with the client content type', () => {
    const p = openaiAdapter.passthrough?.(t('https://host/v1'), 'audio/transcriptions', 'multipart/form-data; boundary=abc');
    expect(p).toEqual({ url: 'https://host/v1/audio/transcriptions', headers: { authorization: 'Bearer sk-test', 'content-type': 'multipart/form-data; boundary=abc' } });
    for (const e of ['completions', 'embeddings', 'images/generations', 'audio/speech', 'moderations'] as const) {
      expect(openaiAdapter.passthrough?.(t('https://api.openai.com'), e, 'application/json').url).toBe(`https://api.openai.com/v1/${e}`);
    }
  });
});

describe('openai passthrough and agent paths', () => {
  it('ignores the chat path of the agent for other endpoints', () => {
    expect(openaiAdapter.passthrough?.(t('https://host/v1', '/custom/chat'), 'embeddings', 'application/json').url).toBe('https://host/v1/embeddings');
  });
});
