// Lazy entry points of the VIP level screens (sys.vip.*), registered in shell/pages.ts.
export const vipPages = {
  'sys.vip.list': () => import('./list'),
  'sys.vip.create': () => import('./form').then((m) => ({ default: m.CreateVip })),
  'sys.vip.update': () => import('./form').then((m) => ({ default: m.UpdateVip })),
};
