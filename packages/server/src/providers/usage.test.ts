// Each family's usage → the canonical Usage, and back to each protocol's words (issue 13).
import { describe, expect, it } from 'vitest';
import { anthropicUsage } from './anthropic/chat';
import { toAnthropicUsage } from './anthropic/messages';
import { mergeAnthropicUsage } from './anthropic/stream';
import type { AnthropicUsage } from './anthropic/wire';
import { geminiUsage } from './gemini/chat';
import { toUsageMetadata } from './gemini/ingress';
import { openaiUsage } from './openai/chat';
import { toResponsesUsage } from './openai/responses-ingress';
import { toChatUsage } from './usage';

describe('usage in', () => {
  it('OpenAI and compatible hosts: cache reads (DeepSeek’s name too), writes (OpenRouter’s), reasoning, audio', () => {
    const u = openaiUsage({
      prompt_tokens: 1000,
      completion_tokens: 300,
      total_tokens: 1300,
      prompt_tokens_details: { cached_tokens: 600, cache_write_tokens: 200, audio_tokens: 50 },
      completion_tokens_details: { reasoning_tokens: 120, audio_tokens: 30, accepted_prediction_tokens: 0 },
      cost: 0.0123,
    });
    expect(u).toEqual({ prompt_tokens: 1000, completion_tokens: 300, total_tokens: 1300, cached_tokens: 600, cache_write_tokens: 200, reasoning_tokens: 120, audio: { prompt_tokens: 50, completion_tokens: 30 } });
    expect(openaiUsage({ prompt_tokens: 10, completion_tokens: 1, prompt_cache_hit_tokens: 8 })).toEqual({ prompt_tokens: 10, completion_tokens: 1, total_tokens: 11, cached_tokens: 8 });
  });

  it('Anthropic: reads and writes are added to the prompt, writes split by lifetime, searches counted even when 0', () => {
    const u = anthropicUsage({ input_tokens: 10, cache_read_input_tokens: 100, cache_creation_input_tokens: 60, cache_creation: { ephemeral_5m_input_tokens: 40, ephemeral_1h_input_tokens: 20 }, output_tokens: 5, server_tool_use: { web_search_requests: 0 } });
    expect(u).toEqual({ prompt_tokens: 170, completion_tokens: 5, total_tokens: 175, cached_tokens: 100, cache_write_tokens: 60, cache_write_1h_tokens: 20, search_calls: 0 });
    // Only the split given: the total is what the lifetimes add up to.
    expect(anthropicUsage({ input_tokens: 1, cache_creation: { ephemeral_1h_input_tokens: 7 }, output_tokens: 0 })).toMatchObject({ prompt_tokens: 8, cache_write_tokens: 7, cache_write_1h_tokens: 7 });
  });

  it('Anthropic streams: message_delta’s cumulative usage merges into message_start’s, nested parts too', () => {
    const state: AnthropicUsage = {};
    mergeAnthropicUsage(state, { input_tokens: 10, cache_creation_input_tokens: 20, cache_creation: { ephemeral_5m_input_tokens: 20, ephemeral_1h_input_tokens: 0 }, output_tokens: 1 });
    expect(mergeAnthropicUsage(state, { output_tokens: 9, server_tool_use: { web_search_requests: 2 } })).toBe(true);
    expect(anthropicUsage(state)).toEqual({ prompt_tokens: 30, completion_tokens: 9, total_tokens: 39, cache_write_tokens: 20, search_calls: 2 });
  });

  it('Gemini: thoughts are completion and its reasoning share; audio by modality', () => {
    const u = geminiUsage({ promptTokenCount: 50, cachedContentTokenCount: 10, candidatesTokenCount: 7, thoughtsTokenCount: 3, promptTokensDetails: [{ modality: 'TEXT', tokenCount: 30 }, { modality: 'AUDIO', tokenCount: 20 }] });
    expect(u).toEqual({ prompt_tokens: 50, completion_tokens: 10, total_tokens: 60, cached_tokens: 10, reasoning_tokens: 3, audio: { prompt_tokens: 20, completion_tokens: 0 } });
  });
});

describe('usage out', () => {
  const billed = { prompt_tokens: 170, completion_tokens: 30, total_tokens: 200, cached_tokens: 100, cache_write_tokens: 60, cache_write_1h_tokens: 20, reasoning_tokens: 12 };

  it('chat: the details inside, the upstream’s unknown details kept, its top-level extras (a host’s cost) not', () => {
    const raw = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2, cost: 0.5, completion_tokens_details: { accepted_prediction_tokens: 3 } };
    expect(toChatUsage(billed, raw)).toEqual({
      prompt_tokens: 170,
      completion_tokens: 30,
      total_tokens: 200,
      prompt_tokens_details: { cached_tokens: 100, cache_write_tokens: 60, audio_tokens: 0 },
      completion_tokens_details: { accepted_prediction_tokens: 3, reasoning_tokens: 12, audio_tokens: 0 },
    });
  });

  it('Anthropic, Responses and Gemini each in their own terms', () => {
    expect(toAnthropicUsage(billed)).toEqual({ input_tokens: 10, cache_creation_input_tokens: 60, cache_read_input_tokens: 100, cache_creation: { ephemeral_5m_input_tokens: 40, ephemeral_1h_input_tokens: 20 }, output_tokens: 30 });
    expect(toAnthropicUsage({ ...billed, search_calls: 2 }).server_tool_use).toEqual({ web_search_requests: 2 });
    expect(toResponsesUsage(billed)).toEqual({ input_tokens: 170, input_tokens_details: { cached_tokens: 100, cache_write_tokens: 60 }, output_tokens: 30, output_tokens_details: { reasoning_tokens: 12 }, total_tokens: 200 });
    expect(toUsageMetadata(billed)).toEqual({ promptTokenCount: 170, candidatesTokenCount: 18, thoughtsTokenCount: 12, cachedContentTokenCount: 100, totalTokenCount: 200 });
  });
});
