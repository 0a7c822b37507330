// Lazy entry points of the corp screens, registered in shell/pages.ts (create and update share one chunk).
export const corpPages = {
  'corp.list': () => import('./list'),
  'corp.create': () => import('./form').then((m) => ({ default: m.CreateCorp })),
  'corp.update': () => import('./form').then((m) => ({ default: m.UpdateCorp })),
};
