// Lazy entry point of the dashboard workplace (the landing page), registered in shell/pages.ts. ECharts
// lives only in this chunk.
export const dashboardPages = {
  'dashboard.workplace': () => import('./workplace'),
};
