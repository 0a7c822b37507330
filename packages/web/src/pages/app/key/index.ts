// Lazy entry point of the app-key list (menu 应用密钥), registered in shell/pages.ts.
export const appKeyPages = {
  'app.key': () => import('./list'),
};
