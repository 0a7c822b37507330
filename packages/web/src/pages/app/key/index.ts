// Lazy entry points of the app-key screens, registered in shell/pages.ts: the list (menu 应用密钥), and the
// create and edit screens `/key/create|update` open for resellers and users (shell/pages.ts picks them by role).
export const appKeyPages = {
  'app.key': () => import('./list'),
};

export const appKeyScreens = {
  'key.create': () => import('./screens').then((m) => ({ default: m.CreateAppKey })),
  'key.update': () => import('./screens').then((m) => ({ default: m.UpdateAppKey })),
};
