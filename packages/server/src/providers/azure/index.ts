// The Azure family reuses every OpenAI transform; only where the request goes and how it
// authenticates differ (./api.ts).
import { openaiChat, toOpenAIBody } from '../openai/chat';
import { mapOpenAIError } from '../openai/error';
import type { ProviderAdapter } from '../types';
import { azureHeaders, azureUrl } from './api';

export const azureAdapter: ProviderAdapter = {
  chat: {
    ...openaiChat,
    buildRequest(target, request) {
      return { url: azureUrl(target, 'chat/completions'), headers: azureHeaders(target.key), body: JSON.stringify(toOpenAIBody(target.model, request)) };
    },
  },
  passthrough(target, endpoint, contentType) {
    // The agent path is written for chat: only its api-version query carries over (see ../openai/api.ts).
    const query = target.path.includes('?') ? target.path.slice(target.path.indexOf('?')) : '';
    return { url: azureUrl({ ...target, path: query }, endpoint), headers: azureHeaders(target.key, contentType) };
  },
  mapError: mapOpenAIError,
};
