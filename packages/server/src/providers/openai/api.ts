// Where an OpenAI-protocol request goes and how it authenticates. Every compatible host (DeepSeek,
// Moonshot, a second gateway…) is this family with another base URL; see ../url.ts for the join rule.
import type { PassthroughEndpoint, UpstreamTarget } from '../types';
import { defaultUrl, resolveUrl } from '../url';

/** Chat honours the agent's `path` (it replaces /v1/chat/completions). */
export function openaiChatUrl(target: UpstreamTarget): string {
  return resolveUrl(target.baseUrl, target.path, '/v1/chat/completions');
}

export function openaiHeaders(key: string, contentType = 'application/json'): Record<string, string> {
  return { authorization: `Bearer ${key}`, 'content-type': contentType };
}

/** Non-chat endpoints: the gateway forwards the body (model replaced) with this URL and these headers.
 *  An agent has one `path`, written for chat; applying it here would send embeddings to the chat
 *  endpoint, so non-chat endpoints always take their default path under the base URL. */
export function openaiPassthrough(target: UpstreamTarget, endpoint: PassthroughEndpoint, contentType: string): { url: string; headers: Record<string, string> } {
  return { url: defaultUrl(target.baseUrl, `/v1/${endpoint}`), headers: openaiHeaders(target.key, contentType) };
}
