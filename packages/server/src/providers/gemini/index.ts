// The Gemini family (Gemini API generateContent). No passthrough: the OpenAI-style endpoints are not
// served in this protocol.
import type { ChatAdapter, ProviderAdapter } from '../types';
import { geminiHeaders, geminiUrl, mapGeminiError } from './api';
import { fromGeminiResponse, toGeminiRequest } from './chat';
import { newGeminiStreamState, parseGeminiStreamEvent, type GeminiStreamState } from './stream';

const chat: ChatAdapter<GeminiStreamState> = {
  buildRequest(target, request) {
    return { url: geminiUrl(target, request.stream === true), headers: geminiHeaders(target.key), body: JSON.stringify(toGeminiRequest(request)) };
  },
  parseResponse: (json) => fromGeminiResponse(json),
  newStreamState: () => newGeminiStreamState(),
  parseStreamEvent: parseGeminiStreamEvent,
};

export const geminiAdapter: ProviderAdapter = { chat, mapError: mapGeminiError };
