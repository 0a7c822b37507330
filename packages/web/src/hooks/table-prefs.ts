// A screen's table preferences as React state, saved to localStorage on every change.
import { useCallback, useState } from 'react';
import { loadPrefs, savePrefs, type TablePrefs } from '../lib/table-prefs';

export function useTablePrefs(screen: string): [TablePrefs, (next: TablePrefs) => void] {
  const [state, setState] = useState(() => ({ screen, prefs: loadPrefs(screen) }));
  // Another screen reusing this component instance (route change): read its own entry.
  const prefs = state.screen === screen ? state.prefs : loadPrefs(screen);
  const update = useCallback(
    (next: TablePrefs) => {
      savePrefs(screen, next);
      setState({ screen, prefs: next });
    },
    [screen],
  );
  return [prefs, update];
}
