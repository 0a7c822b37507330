// The OpenAI family: OpenAI itself and every OpenAI-compatible host (the default for unknown corps).
import type { ProviderAdapter } from '../types';
import { openaiPassthrough } from './api';
import { openaiChat } from './chat';
import { mapOpenAIError } from './error';
import { openaiTasks } from './tasks';

export const openaiAdapter: ProviderAdapter = {
  chat: openaiChat,
  passthrough: openaiPassthrough,
  mapError: mapOpenAIError,
  tasks: openaiTasks,
};
