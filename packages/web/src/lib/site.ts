// Site identity (docs/SPEC.md §1, §9): fetched once per domain through react-query, defaults when unset.
import { useQuery } from '@tanstack/react-query';
import { DEFAULT_SITE, type PublicSiteConfig } from '@fastgate/core/site';
import { siteApi } from '../api/site';

export const siteQuery = {
  queryKey: ['site', 'config', window.location.hostname],
  queryFn: siteApi.config,
  staleTime: 5 * 60_000,
} as const;

export function useSite(): PublicSiteConfig {
  const { data } = useQuery(siteQuery);
  return data ?? DEFAULT_SITE;
}

export function applyFavicon(href: string): void {
  let link = document.querySelector<HTMLLinkElement>('link[rel~="icon"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'icon';
    document.head.appendChild(link);
  }
  if (link.getAttribute('href') !== href) link.href = href;
}
