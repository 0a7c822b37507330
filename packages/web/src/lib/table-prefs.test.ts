import { describe, expect, it } from 'vitest';
import { DEFAULT_PREFS, isShown, loadPrefs, prefsKey, savePrefs, toggleColumn } from './table-prefs';

/** An in-memory Storage with the three calls the module makes. */
function memory(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
  };
}

describe('table preferences', () => {
  it('a column follows the page default until toggled; toggling back to the default forgets the choice', () => {
    expect(isShown(DEFAULT_PREFS, 'remark', true)).toBe(false);
    expect(isShown(DEFAULT_PREFS, 'name')).toBe(true);
    const shown = toggleColumn(DEFAULT_PREFS, 'remark', true, true);
    expect(shown.columns).toEqual({ remark: true });
    expect(isShown(shown, 'remark', true)).toBe(true);
    expect(toggleColumn(shown, 'remark', false, true).columns).toEqual({});
    const hidden = toggleColumn(shown, 'type', false);
    expect(hidden.columns).toEqual({ remark: true, type: false });
  });

  it('saves per screen, and a reset to the defaults removes the entry', () => {
    const store = memory();
    const prefs = { columns: { type: false }, density: 'small' as const };
    savePrefs('/model/list', prefs, store);
    expect(loadPrefs('/model/list', store)).toEqual(prefs);
    expect(loadPrefs('/agent/list', store)).toEqual(DEFAULT_PREFS);
    savePrefs('/model/list', DEFAULT_PREFS, store);
    expect(store.data.has(prefsKey('/model/list'))).toBe(false);
  });

  it('reads unreadable or foreign entries as the defaults, keeping what is valid', () => {
    expect(loadPrefs('/a', memory({ [prefsKey('/a')]: '{not json' }))).toEqual(DEFAULT_PREFS);
    expect(loadPrefs('/a', memory({ [prefsKey('/a')]: '42' }))).toEqual(DEFAULT_PREFS);
    expect(loadPrefs('/a', memory({ [prefsKey('/a')]: JSON.stringify({ columns: { a: false, b: 'yes' }, density: 'huge' }) }))).toEqual({ columns: { a: false }, density: 'default' });
  });
});
