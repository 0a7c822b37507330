// Lazy entry points of the model screens, registered in shell/pages.ts (create and update share one chunk).
export const modelPages = {
  'model.list': () => import('./list'),
  'model.create': () => import('./form').then((m) => ({ default: m.CreateModel })),
  'model.update': () => import('./form').then((m) => ({ default: m.UpdateModel })),
  'model.detail': () => import('./detail'),
};
