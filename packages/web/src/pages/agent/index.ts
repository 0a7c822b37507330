// Lazy entry points of the model agent screens, registered in shell/pages.ts (create and update share one chunk).
export const agentPages = {
  'agent.list': () => import('./list'),
  'agent.create': () => import('./form').then((m) => ({ default: m.CreateAgent })),
  'agent.update': () => import('./form').then((m) => ({ default: m.UpdateAgent })),
  'agent.detail': () => import('./detail'),
};
