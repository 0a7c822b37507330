// Lazy entry points of the user management screens, registered in app/pages.ts.
export const userPages = {
  'user.list': () => import('./list'),
  'user.create': () => import('./form').then((m) => ({ default: m.CreateUser })),
  'user.update': () => import('./form').then((m) => ({ default: m.UpdateUser })),
  'user.detail': () => import('./detail'),
};
