// Lazy entry point of "my model", registered in app/pages.ts.
export const myModelPages = {
  'my.model': () => import('./list'),
};
