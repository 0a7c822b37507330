// Tab bar entries (docs/SPEC.md §3.14 tab entry). The landing tab is fixed and cannot be closed.
import { create } from 'zustand';

interface TabEntry {
  /** i18n key of the title (`menu.<name>`). */
  title: string;
  name: string;
  fullPath: string;
  query: Record<string, string>;
  ignoreCache?: boolean;
}

interface TabsState {
  tabs: TabEntry[];
  open: (tab: TabEntry) => void;
  close: (fullPath: string) => void;
  closeOthers: (fullPath: string) => void;
  reset: () => void;
}

export const useTabsStore = create<TabsState>()((set) => ({
  tabs: [],
  open: (tab) =>
    set((state) => {
      const index = state.tabs.findIndex((t) => t.name === tab.name);
      if (index < 0) return { tabs: [...state.tabs, tab] };
      const tabs = state.tabs.slice();
      tabs[index] = tab;
      return { tabs };
    }),
  close: (fullPath) => set((state) => ({ tabs: state.tabs.filter((t) => t.fullPath !== fullPath) })),
  closeOthers: (fullPath) => set((state) => ({ tabs: state.tabs.filter((t) => t.fullPath === fullPath) })),
  reset: () => set({ tabs: [] }),
}));
