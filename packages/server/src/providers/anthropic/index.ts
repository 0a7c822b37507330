// The Anthropic family (Messages API). No passthrough: Anthropic serves no OpenAI-style endpoints.
import type { ChatAdapter, ProviderAdapter } from '../types';
import { anthropicHeaders, anthropicUrl, mapAnthropicError } from './api';
import { fromAnthropicResponse, toAnthropicRequest } from './chat';
import { newAnthropicStreamState, parseAnthropicStreamEvent, type AnthropicStreamState } from './stream';

const chat: ChatAdapter<AnthropicStreamState> = {
  buildRequest(target, request) {
    return { url: anthropicUrl(target), headers: anthropicHeaders(target.key), body: JSON.stringify(toAnthropicRequest(target.model, request)) };
  },
  parseResponse: (json) => fromAnthropicResponse(json),
  newStreamState: () => newAnthropicStreamState(),
  parseStreamEvent: parseAnthropicStreamEvent,
};

export const anthropicAdapter: ProviderAdapter = { chat, mapError: mapAnthropicError };
