// Wire shapes of the console API (docs/ORIGINAL-API.md §2).
export interface Envelope<T = unknown> {
  code: number;
  message: string;
  data: T;
}

interface Paging {
  current: number;
  pageSize: number;
  total: number;
}

export interface Page<T> {
  items: T[];
  paging: Paging;
}

export const PAGE_SIZES = [20, 50, 100, 500, 1000] as const;

/** A server menu entry (`POST /api/user/menu`): route names the role may open, in menu order. */
export interface ServerMenuItem {
  name: string;
  path: string;
  children?: ServerMenuItem[];
}
