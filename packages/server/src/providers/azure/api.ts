// Azure OpenAI: the OpenAI protocol behind a deployment URL and an `api-key` header.
//
// URL: `{base}/openai/deployments/{deployment}/{endpoint}?api-version={version}` where the deployment is
// the upstream model id (after the agent's model replacement, so an agent maps model → deployment).
// - A base URL that already ends with `/openai` is not given a second one.
// - The agent `path` may be only a query (`?api-version=2025-01-01-preview`): it sets the version and
//   the deployment URL is still built. A path with a path part is used literally (joined to the base);
//   `{deployment}`/`{model}` in it are replaced and `api-version` is added when it has none.
import type { PassthroughEndpoint, UpstreamTarget } from '../types';
import { overrideUrl, trimBase } from '../url';

/** The latest GA data-plane version (stream_options and max_completion_tokens need ≥ 2024-09-01). */
export const AZURE_API_VERSION = '2024-10-21';

export function azureUrl(target: UpstreamTarget, endpoint: PassthroughEndpoint | 'chat/completions'): string {
  const override = target.path.trim();
  const deployment = encodeURIComponent(target.model);
  const [pathPart = '', query = ''] = override.split('?', 2);
  const params = new URLSearchParams(query);
  if (!params.has('api-version')) params.set('api-version', AZURE_API_VERSION);
  if (pathPart) {
    const url = overrideUrl(target.baseUrl, pathPart.replace(/\{(?:deployment|model)\}/g, deployment));
    return `${url}?${params.toString()}`;
  }
  const base = trimBase(target.baseUrl).replace(/\/openai$/i, '');
  return `${base}/openai/deployments/${deployment}/${endpoint}?${params.toString()}`;
}

export function azureHeaders(key: string, contentType = 'application/json'): Record<string, string> {
  return { 'api-key': key, 'content-type': contentType };
}
