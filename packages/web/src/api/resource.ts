// The refine-style data provider: the verbs every CRUD prefix shares (docs/ORIGINAL-API.md §1.2). Pages call these
// typed functions and never write URLs.
import type { Page } from '@fastgate/core/api';
import type { AxiosRequestConfig } from 'axios';
import { get, post, postBlob } from './http';
import { API } from './paths';

export interface PageQuery {
  current: number;
  pageSize: number;
  [filter: string]: unknown;
}

export function resourceApi<Row, Create = Partial<Row>, Update = Partial<Row> & { id: string }>(prefix: string) {
  const base = `${API}${prefix}`;
  return {
    prefix,
    page: (query: PageQuery) => post<Page<Row>>(`${base}/page`, query),
    list: (params?: object) => get<{ items: Row[] }>(`${base}/list`, params),
    detail: (id: string) => get<Row>(`${base}/detail`, { id }),
    create: (body: Create, config?: AxiosRequestConfig) => post<unknown>(`${base}/create`, body as object, config),
    update: (body: Update, config?: AxiosRequestConfig) => post<unknown>(`${base}/update`, body as object, config),
    remove: (id: string) => post<unknown>(`${base}/delete`, { id }),
    changeStatus: (id: string, status: number) => post<unknown>(`${base}/change/status`, { id, status }),
    batchOperate: (body: { action: string; ids: string[]; value?: unknown }) => post<unknown>(`${base}/batch/operate`, body),
    export: (body: object) => postBlob(`${base}/export`, body),
  };
}
