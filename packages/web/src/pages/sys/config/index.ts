// Lazy entry point of the system config screen, registered in shell/pages.ts.
export const sysConfigPages = {
  'sys.config': () => import('./page'),
};
