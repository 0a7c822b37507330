// Lazy entry point of the system config screen, registered in app/pages.ts.
export const sysConfigPages = {
  'sys.config': () => import('./page'),
};
