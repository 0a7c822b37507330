// Lazy entry points of the model key screens, registered in shell/pages.ts (create and update share one chunk).
export const keyPages = {
  'key.list': () => import('./list'),
  'key.create': () => import('./form').then((m) => ({ default: m.CreateKey })),
  'key.update': () => import('./form').then((m) => ({ default: m.UpdateKey })),
};
