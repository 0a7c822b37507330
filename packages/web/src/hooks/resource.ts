// The refine-style resource hooks on react-query. Query keys start with the API prefix, so
// every mutation of a prefix invalidates its pages, lists and details at once.
import { useCallback, useMemo } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import type { AxiosRequestConfig } from 'axios';
import type { StatusValue } from '@fastgate/core/constants';
import { get, post } from '../api/http';
import { API } from '../api/paths';
import { resourceApi } from '../api/resource';
import type { FilterField } from '../components/SearchForm';
import { compactFilters, readFilters, readPaging, valueTypes, writeQuery, type FilterSpec, type FilterValues } from './url-query';

export const resourceKeys = {
  all: (prefix: string) => [prefix] as const,
  page: (prefix: string, query: object) => [prefix, 'page', query] as const,
  list: (prefix: string, params?: object) => [prefix, 'list', params ?? {}] as const,
  detail: (prefix: string, id: string | undefined) => [prefix, 'detail', id] as const,
};

export interface ResourcePage<Row, F extends FilterSpec = FilterField> {
  prefix: string;
  /** The filter declarations this page was built with (the search form renders them). */
  filters: readonly F[];
  current: number;
  pageSize: number;
  /** Filter values as read from the URL. */
  values: FilterValues;
  rows: Row[];
  total: number;
  loading: boolean;
  fetching: boolean;
  refetch: () => void;
  setPaging: (current: number, pageSize: number) => void;
  /** Replaces every declared filter and goes back to page 1. */
  setFilters: (values: FilterValues) => void;
}

/**
 * One page of `POST <prefix>/page`. `current`, `pageSize` and the declared filters are read from and
 * written to the URL query; `fixed` adds body fields that are not user filters (e.g. `{ type: 2 }`).
 */
export function useResourcePage<Row, F extends FilterSpec = FilterField>(
  prefix: string,
  filters: readonly F[] = [],
  fixed?: Record<string, unknown>,
): ResourcePage<Row, F> {
  const [search, setSearch] = useSearchParams();
  // The declarations are rebuilt on each render (they carry translated labels); key on their shape only.
  const typesKey = JSON.stringify(valueTypes(filters));
  const types = useMemo(() => JSON.parse(typesKey) as ReturnType<typeof valueTypes>, [typesKey]);
  const { current, pageSize } = readPaging(search);
  const searchKey = search.toString();
  const values = useMemo(() => readFilters(new URLSearchParams(searchKey), types), [searchKey, types]);
  const body = { ...fixed, ...compactFilters(values), current, pageSize };

  const query = useQuery({
    queryKey: resourceKeys.page(prefix, body),
    queryFn: () => resourceApi<Row>(prefix).page(body),
    placeholderData: keepPreviousData,
  });

  const setPaging = useCallback(
    (nextCurrent: number, nextSize: number) => setSearch((prev) => writeQuery(prev, types, readFilters(prev, types), { current: nextCurrent, pageSize: nextSize })),
    [setSearch, types],
  );
  const setFilters = useCallback(
    (next: FilterValues) => setSearch((prev) => writeQuery(prev, types, next, { current: 1, pageSize: readPaging(prev).pageSize })),
    [setSearch, types],
  );
  const { refetch } = query;
  const reload = useCallback(() => void refetch(), [refetch]);

  return {
    prefix,
    filters,
    current,
    pageSize,
    values,
    rows: query.data?.items ?? [],
    // docs/ORIGINAL-API.md §2.3: `total` is omitted when 0.
    total: query.data?.paging?.total ?? 0,
    loading: query.isLoading,
    fetching: query.isFetching,
    refetch: reload,
    setPaging,
    setFilters,
  };
}

/** `GET <prefix>/detail?id=`; idle while `id` is empty (create mode). */
export function useResourceDetail<Row>(prefix: string, id: string | undefined | null) {
  return useQuery({
    queryKey: resourceKeys.detail(prefix, id ?? undefined),
    queryFn: () => resourceApi<Row>(prefix).detail(id!),
    enabled: !!id,
    // A form must start from the stored record, not from a cached copy of another tab's edit.
    staleTime: 0,
  });
}

export interface ListOptions {
  params?: object;
  /**
   * No toast when the call fails: pickers whose API may not exist yet (or the caller's role may not
   * list it) degrade to an empty list instead.
   */
  silent?: boolean;
  enabled?: boolean;
}

/** `GET <prefix>/list`: picker rows (`{items}`). */
export function useResourceList<Item>(prefix: string, { params, silent, enabled = true }: ListOptions = {}) {
  return useQuery({
    queryKey: resourceKeys.list(prefix, params),
    queryFn: async () => {
      const config: AxiosRequestConfig = { silent };
      const data = await get<{ items?: Item[] } | null>(`${API}${prefix}/list`, params, config);
      return data?.items ?? [];
    },
    enabled,
    staleTime: 60_000,
  });
}

/** Verbs of docs/ORIGINAL-API.md §1.2 with their inputs; any other `a/b` path posts its body as is. */
interface VerbInputs {
  create: object;
  update: object & { id: string };
  delete: string;
  status: { id: string; status: StatusValue };
  public: { id: string; is_public: boolean };
  batch: { action: string; ids: string[]; value?: unknown } & Record<string, unknown>;
}
export type Verb = keyof VerbInputs | `${string}/${string}`;
export type VerbInput<V extends Verb> = V extends keyof VerbInputs ? VerbInputs[V] : object;

function callVerb(prefix: string, verb: Verb, input: unknown, config?: AxiosRequestConfig): Promise<unknown> {
  const api = resourceApi(prefix);
  switch (verb) {
    case 'create':
      return api.create(input as object, config);
    case 'update':
      return api.update(input as VerbInputs['update'], config);
    case 'delete':
      return api.remove(input as string);
    case 'status': {
      const { id, status } = input as VerbInputs['status'];
      return api.changeStatus(id, status);
    }
    case 'public':
      return post(`${API}${prefix}/change/public`, input as object);
    case 'batch':
      return api.batchOperate(input as VerbInputs['batch']);
    default:
      return post(`${API}${prefix}/${verb}`, input as object);
  }
}

/**
 * A write on a resource. On success every query of the prefix (pages, lists, details) is invalidated;
 * `alsoInvalidate` names other prefixes whose data embeds this one (e.g. models show their corp).
 */
/** `config` goes with create and update calls (e.g. `formFieldErrors` when a form shows them). */
export function useResourceMutation<V extends Verb, Result = unknown>(prefix: string, verb: V, alsoInvalidate: readonly string[] = [], config?: AxiosRequestConfig) {
  const client = useQueryClient();
  return useMutation<Result, Error, VerbInput<V>>({
    mutationFn: (input) => callVerb(prefix, verb, input, config) as Promise<Result>,
    onSuccess: () => Promise.all([prefix, ...alsoInvalidate].map((p) => client.invalidateQueries({ queryKey: resourceKeys.all(p) }))),
  });
}

