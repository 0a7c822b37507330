// Lazy entry points of the license screens (admin), registered in shell/pages.ts.
export const licensePages = {
  'license.list': () => import('./list'),
  'license.create': () => import('./form').then((m) => ({ default: m.CreateLicense })),
  'license.update': () => import('./form').then((m) => ({ default: m.UpdateLicense })),
};
