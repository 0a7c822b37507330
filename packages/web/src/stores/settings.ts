// Layout and theme settings (docs/SPEC.md §2.5 drawer). Kept in localStorage so a reload keeps the chosen layout;
// "copy settings" turns a choice into new defaults in src/lib/settings.ts.
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { defaultSettings, STORAGE, type AppSettings } from '../lib/settings';

interface SettingsState extends AppSettings {
  update: (patch: Partial<AppSettings>) => void;
  reset: () => void;
}

export const useSettingsStore = create<SettingsState>()(
  persist(
    (set) => ({
      ...defaultSettings,
      update: (patch) =>
        set((state) => {
          const next = { ...patch };
          // docs/SPEC.md §4.7: turning topMenu on or off expands the menu again.
          if (patch.topMenu !== undefined && patch.topMenu !== state.topMenu) next.menuCollapse = false;
          return next;
        }),
      reset: () => set({ ...defaultSettings }),
    }),
    {
      name: STORAGE.settings,
      storage: createJSONStorage(() => localStorage),
      partialize: (state) => pickSettings(state),
    },
  ),
);

/** The settings without the store's actions (what "copy settings" puts on the clipboard). */
export function pickSettings(state: AppSettings): AppSettings {
  const out = {} as Record<string, unknown>;
  for (const key of Object.keys(defaultSettings) as (keyof AppSettings)[]) out[key] = state[key];
  return out as unknown as AppSettings;
}
