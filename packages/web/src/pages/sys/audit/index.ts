// Lazy entry point of the audit log screen (issue 11), registered in shell/pages.ts.
export const auditPages = {
  'sys.audit': () => import('./list'),
};
