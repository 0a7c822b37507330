// Lazy entry points of the app screens, registered in shell/pages.ts (create and update share one chunk).
export const appPages = {
  'app.list': () => import('./list'),
  'app.create': () => import('./form').then((m) => ({ default: m.CreateApp })),
  'app.update': () => import('./form').then((m) => ({ default: m.UpdateApp })),
};
