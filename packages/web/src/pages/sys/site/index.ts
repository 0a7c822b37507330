// Lazy entry points of the site config screens, registered in shell/pages.ts (create and update share one chunk).
export const siteConfigPages = {
  'sys.site.config': () => import('./list'),
  'sys.site.create': () => import('./form').then((m) => ({ default: m.CreateSiteConfig })),
  'sys.site.update': () => import('./form').then((m) => ({ default: m.UpdateSiteConfig })),
  'sys.site.detail': () => import('./detail'),
};
