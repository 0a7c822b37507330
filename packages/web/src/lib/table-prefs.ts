// A list screen's table preferences (issue 15): which columns show and the row density, kept per screen in
// localStorage. Only what the person changed is stored (a column they showed or hid), so a column a page
// adds or re-declares later still follows the page's default.

export const DENSITIES = ['default', 'middle', 'small'] as const;
type Density = (typeof DENSITIES)[number];

export interface TablePrefs {
  /** Column key → shown, for the columns the person toggled. */
  columns: Record<string, boolean>;
  density: Density;
}

export const DEFAULT_PREFS: TablePrefs = { columns: {}, density: 'default' };

const KEY_PREFIX = 'fastgate.table:';

/** One key per screen (route path: the log and task kinds, users and resellers are separate screens). */
export const prefsKey = (screen: string) => `${KEY_PREFIX}${screen}`;

/** Stored preferences, or the defaults when none (or something unreadable) is stored. */
export function loadPrefs(screen: string, storage: Pick<Storage, 'getItem'> = localStorage): TablePrefs {
  try {
    const raw: unknown = JSON.parse(storage.getItem(prefsKey(screen)) ?? 'null');
    if (!raw || typeof raw !== 'object') return DEFAULT_PREFS;
    const { columns, density } = raw as Partial<TablePrefs>;
    const cols = columns && typeof columns === 'object' ? Object.fromEntries(Object.entries(columns).filter(([, v]) => typeof v === 'boolean')) : {};
    return { columns: cols, density: DENSITIES.includes(density as Density) ? (density as Density) : 'default' };
  } catch {
    return DEFAULT_PREFS;
  }
}

/** Saves, or forgets the screen's entry when it equals the defaults (reset). */
export function savePrefs(screen: string, prefs: TablePrefs, storage: Pick<Storage, 'setItem' | 'removeItem'> = localStorage) {
  if (prefs.density === 'default' && Object.keys(prefs.columns).length === 0) storage.removeItem(prefsKey(screen));
  else storage.setItem(prefsKey(screen), JSON.stringify(prefs));
}

/** Whether a column shows: the person's choice, else the page's default. */
export const isShown = (prefs: TablePrefs, key: string, defaultHidden = false) => prefs.columns[key] ?? !defaultHidden;

/** Records a toggle; choosing the default again drops the override. */
export function toggleColumn(prefs: TablePrefs, key: string, shown: boolean, defaultHidden = false): TablePrefs {
  const { [key]: _old, ...rest } = prefs.columns;
  return { ...prefs, columns: shown === !defaultHidden ? rest : { ...rest, [key]: shown } };
}
