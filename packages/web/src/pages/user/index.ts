// Lazy entry points of the account screens, registered in shell/pages.ts: users (admin, reseller) and
// resellers (admin) share the list, form and detail, each told which kind it shows.
export const userPages = {
  'user.list': () => import('./list'),
  'user.create': () => import('./form').then((m) => ({ default: m.CreateUser })),
  'user.update': () => import('./form').then((m) => ({ default: m.UpdateUser })),
  'user.detail': () => import('./detail'),
};

export const resellerPages = {
  'sys.reseller.list': () => import('./list').then((m) => ({ default: m.ResellerList })),
  'sys.reseller.create': () => import('./form').then((m) => ({ default: m.CreateReseller })),
  'sys.reseller.update': () => import('./form').then((m) => ({ default: m.UpdateReseller })),
  'sys.reseller.detail': () => import('./detail').then((m) => ({ default: m.ResellerDetail })),
};
