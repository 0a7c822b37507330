// The adapter of each protocol family. Typed as a Record over PROVIDER_FAMILIES, so adding a family in
// packages/core without an adapter here is a compile error.
import type { ProviderFamily } from '@fastgate/core/constants';
import { anthropicAdapter } from './anthropic/index';
import { azureAdapter } from './azure/index';
import { geminiAdapter } from './gemini/index';
import { openaiAdapter } from './openai/index';
import { azureResponsesUpstream, responsesUpstream } from './openai/responses-upstream';
import type { ChatAdapter, ProviderAdapter } from './types';

export const providers: Record<ProviderFamily, ProviderAdapter> = {
  openai: openaiAdapter,
  azure: azureAdapter,
  anthropic: anthropicAdapter,
  gemini: geminiAdapter,
};

/** The chat adapter of a route: an OpenAI-family or Azure agent whose upstream speaks only the Responses
 *  API (wire_api 'responses') gets the Responses conversion; everything else its family's chat. */
export function chatAdapterOf(route: { family: ProviderFamily; wire: 'chat' | 'responses' }): ChatAdapter<any> {
  if (route.wire === 'responses' && route.family === 'openai') return responsesUpstream;
  if (route.wire === 'responses' && route.family === 'azure') return azureResponsesUpstream;
  return providers[route.family].chat;
}
