// The adapter of each protocol family. Typed as a Record over PROVIDER_FAMILIES, so adding a family in
// packages/core without an adapter here is a compile error.
import type { ProviderFamily } from '@fastgate/core/constants';
import { anthropicAdapter } from './anthropic/index';
import { azureAdapter } from './azure/index';
import { geminiAdapter } from './gemini/index';
import { openaiAdapter } from './openai/index';
import type { ProviderAdapter } from './types';

export const providers: Record<ProviderFamily, ProviderAdapter> = {
  openai: openaiAdapter,
  azure: azureAdapter,
  anthropic: anthropicAdapter,
  gemini: geminiAdapter,
};
