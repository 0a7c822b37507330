// Lazy entry points of the group screens, registered in shell/pages.ts (create and update share one chunk).
export const groupPages = {
  'group.list': () => import('./list'),
  'group.create': () => import('./form').then((m) => ({ default: m.CreateGroup })),
  'group.update': () => import('./form').then((m) => ({ default: m.UpdateGroup })),
};
