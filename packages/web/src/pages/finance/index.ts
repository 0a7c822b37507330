// Lazy entry points of the finance screens (bills, bill detail, deal records), registered in shell/pages.ts.
export const financePages = {
  'finance.billList': () => import('./bill-list'),
  'finance.billDetail': () => import('./bill-detail'),
  'finance.dealRecord': () => import('./deal-record'),
};
