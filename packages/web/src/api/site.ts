import { withSiteDefaults, type PublicSiteConfig } from '@fastgate/core/site';
import type { ServerMenuItem } from '@fastgate/core/api';
import { post } from './http';
import { API } from './paths';

export const siteApi = {
  /** Public branding of this domain, with docs/SPEC.md §9 defaults for whatever is unset. */
  config: async (): Promise<PublicSiteConfig> => {
    const data = await post<Partial<PublicSiteConfig> | null>(`${API}/open/site/config`, { domain: window.location.hostname }, { silent: true });
    return withSiteDefaults(data ?? {});
  },
};

export const menuApi = {
  /** docs/SPEC.md §7: the server menu lives outside /api/v1. */
  serverMenu: () => post<{ items: ServerMenuItem[] }>('/api/user/menu'),
};
