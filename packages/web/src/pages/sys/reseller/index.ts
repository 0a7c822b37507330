// Lazy entry points of the reseller screens (admin), registered in app/pages.ts.
export const resellerPages = {
  'sys.reseller.list': () => import('./list'),
  'sys.reseller.create': () => import('./form').then((m) => ({ default: m.CreateReseller })),
  'sys.reseller.update': () => import('./form').then((m) => ({ default: m.UpdateReseller })),
  'sys.reseller.detail': () => import('./detail'),
};
