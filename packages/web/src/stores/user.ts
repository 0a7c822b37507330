// The session (docs/SPEC.md §4.1): token and role live in localStorage under the keys of docs/SPEC.md §9; the signed-in
// person's info is filled from `GET /user/info` by the guard.
import { create } from 'zustand';
import { ROLES, type Role } from '@fastgate/core/constants';
import type { SessionUser } from '@fastgate/core/schemas/user-center';
import { STORAGE } from '../lib/settings';

function storedRole(): Role | undefined {
  const value = localStorage.getItem(STORAGE.role);
  return (ROLES as readonly string[]).includes(value ?? '') ? (value as Role) : undefined;
}

interface UserState {
  token: string | null;
  /** The role: the login channel at first, confirmed by `/user/info`. */
  role: Role | undefined;
  info: SessionUser | null;
  setToken: (token: string | null) => void;
  setRole: (role: Role | undefined) => void;
  setInfo: (info: SessionUser) => void;
  /** docs/SPEC.md §4.1: the store can switch the role between user and admin. */
  switchRole: () => void;
  clear: () => void;
}

export const useUserStore = create<UserState>()((set, get) => ({
  token: localStorage.getItem(STORAGE.token),
  role: storedRole(),
  info: null,
  setToken: (token) => {
    if (token) localStorage.setItem(STORAGE.token, token);
    else localStorage.removeItem(STORAGE.token);
    set({ token });
  },
  setRole: (role) => {
    if (role) localStorage.setItem(STORAGE.role, role);
    else localStorage.removeItem(STORAGE.role);
    set({ role });
  },
  setInfo: (info) => {
    get().setRole(info.role);
    set({ info });
  },
  switchRole: () => get().setRole(get().role === 'user' ? 'admin' : 'user'),
  clear: () => {
    localStorage.removeItem(STORAGE.token);
    localStorage.removeItem(STORAGE.role);
    set({ token: null, role: undefined, info: null });
  },
}));
