// Lazy entry point of "my model", registered in shell/pages.ts.
export const myModelPages = {
  'my.model': () => import('./list'),
};
