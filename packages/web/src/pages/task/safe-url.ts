// Provider-supplied URLs are followed only when they are plain web addresses.

/** The URL when it is http(s), else undefined (`javascript:`, `data:`, relative or malformed). */
export function httpUrl(url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}
