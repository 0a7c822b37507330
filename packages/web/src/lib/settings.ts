// Layout and theme defaults (docs/SPEC.md §2.5 settings drawer, §9). "Copy settings" in the drawer yields this shape.
export interface AppSettings {
  navbar: boolean;
  menu: boolean;
  topMenu: boolean;
  footer: boolean;
  tabBar: boolean;
  menuWidth: number;
  colorWeak: boolean;
  menuCollapse: boolean;
  menuFromServer: boolean;
  themeColor: string;
  theme: 'light' | 'dark';
  device: 'desktop' | 'mobile';
  globalSettings: boolean;
}

export const defaultSettings: AppSettings = {
  navbar: true,
  menu: true,
  topMenu: false,
  footer: true,
  tabBar: false,
  menuWidth: 220,
  colorWeak: false,
  menuCollapse: false,
  menuFromServer: false,
  themeColor: '#165DFF',
  theme: 'light',
  device: 'desktop',
  globalSettings: false,
};

/** localStorage keys (docs/SPEC.md §9: token and userRole; the rest are ours). */
export const STORAGE = {
  token: 'token',
  role: 'userRole',
  locale: 'arco-lang',
  settings: 'fastgate-settings',
} as const;
