// How a provider's base URL and an endpoint path are joined (one rule for every family).
//
// - A base URL is the host plus an optional prefix: `https://api.openai.com`, `https://host/v1`,
//   `https://open.bigmodel.cn/api/paas/v4`, `https://proxy.example/openai/v1`.
// - Default paths carry their API version (`/v1/chat/completions`, `/v1beta/models/…`). When the base
//   URL already ends with a version segment (`/v1`, `/v4`, `/v1beta`, `/v1alpha`), that segment *is* the
//   version, so the default path's own version is dropped: `https://host/v1` + `/v1/embeddings` →
//   `https://host/v1/embeddings`, never `/v1/v1/…`. Compatible hosts with other versions (`/api/v3`)
//   work the same way.
// - An agent `path` is taken as written, joined to the base URL, or used on its own when it is an
//   absolute `http(s)://` URL. The one correction: when the path starts with the very version segment the
//   base ends with (`https://host/v1` + `/v1/chat/completions`), it is not doubled — nobody means /v1/v1.
// - An agent has one `path`, written for chat: OpenAI-family non-chat endpoints (embeddings, images…)
//   ignore it and always use their default path (Azure keeps only its `?api-version=`).

const VERSION_SUFFIX = /\/v\d+(?:alpha|beta)?\d*$/i;
const VERSION_PREFIX = /^\/v\d+(?:alpha|beta)?\d*(?=\/)/i;

export function trimBase(baseUrl: string): string {
  return baseUrl.trim().replace(/\/+$/, '');
}

/** Base URL + a family's default (versioned) path, following the rule above. */
export function defaultUrl(baseUrl: string, defaultPath: string): string {
  const base = trimBase(baseUrl);
  const path = VERSION_SUFFIX.test(base) ? defaultPath.replace(VERSION_PREFIX, '') : defaultPath;
  return base + path;
}

/** Base URL + an agent's explicit path override. */
export function overrideUrl(baseUrl: string, path: string): string {
  const p = path.trim();
  if (/^https?:\/\//i.test(p)) return p;
  const base = trimBase(baseUrl);
  const rel = p.startsWith('/') || p.startsWith('?') ? p : `/${p}`;
  const version = VERSION_SUFFIX.exec(base)?.[0];
  return base + (version && rel.toLowerCase().startsWith(`${version.toLowerCase()}/`) ? rel.slice(version.length) : rel);
}

/** The URL for one call: the agent's path when it has one, else the default path. */
export function resolveUrl(baseUrl: string, overridePath: string, defaultPath: string): string {
  return overridePath.trim() ? overrideUrl(baseUrl, overridePath) : defaultUrl(baseUrl, defaultPath);
}
