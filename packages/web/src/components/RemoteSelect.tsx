// A picker searched on the server (`GET /picker/<kind>`, issue 15 part 4) for lists too large to load:
// typing asks for the first PICKER_LIMIT matches (debounced); chosen values the page does not have yet
// are resolved by `ids`, and one the caller cannot see shows as "ID n". Looks like ResourceSelect.
import { useEffect, useMemo, useState } from 'react';
import { Select, type SelectProps } from '@arco-design/web-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { PICKER_PREFIX } from '@fastgate/core/entities/picker';
import { get } from '../api/http';
import { API } from '../api/paths';
import { useGlobalLocale } from '../locale';
import { chosenLabel, PickerOption } from './ResourceSelect';

const DEBOUNCE_MS = 300;

export interface RemoteSelectProps<Item> extends Omit<SelectProps, 'options' | 'loading' | 'value' | 'onChange' | 'onSearch' | 'filterOption'> {
  /** `account` or `app`: the route under /picker. */
  kind: string;
  /** Fixed query fields (role, rid, user_id). */
  params?: Record<string, string | number | undefined>;
  valueOf: (item: Item) => number;
  labelOf: (item: Item) => string;
  subOf?: (item: Item) => string;
  value?: SelectProps['value'];
  onChange?: (value: SelectProps['value']) => void;
}

function useDebounced<T>(value: T, ms: number): T {
  const [out, setOut] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setOut(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return out;
}

export function RemoteSelect<Item>({ kind, params, valueOf, labelOf, subOf, value, onChange, ...rest }: RemoteSelectProps<Item>) {
  const { g } = useGlobalLocale();
  const [input, setInput] = useState('');
  // Nothing is searched until the picker is first opened (a list page renders several).
  const [opened, setOpened] = useState(false);
  const keyword = useDebounced(input.trim(), DEBOUNCE_MS);
  const url = `${API}${PICKER_PREFIX}/${kind}`;
  const fetchItems = (query: object) => get<{ items?: Item[] } | null>(url, { ...params, ...query }, { silent: true }).then((d) => d?.items ?? []);

  const found = useQuery({
    queryKey: ['picker', kind, params ?? {}, 'search', keyword],
    queryFn: () => fetchItems({ keyword: keyword || undefined }),
    placeholderData: keepPreviousData,
    enabled: opened,
    staleTime: 30_000,
  });
  const chosen = useMemo(() => [value].flat().filter((v): v is number => typeof v === 'number' || (typeof v === 'string' && /^\d+$/.test(v))).map(Number), [value]);
  const missing = chosen.filter((id) => !found.data?.some((item) => valueOf(item) === id));
  const resolved = useQuery({
    queryKey: ['picker', kind, params ?? {}, 'ids', missing],
    queryFn: () => fetchItems({ ids: missing.join(',') }),
    enabled: missing.length > 0,
    staleTime: 60_000,
  });

  const names = new Map<unknown, string>();
  const rows = new Map<number, Item>();
  for (const item of [...(resolved.data ?? []), ...(found.data ?? [])]) rows.set(valueOf(item), item);
  for (const [id, item] of rows) names.set(id, labelOf(item));
  // Wire values may arrive as text from the URL; the box shows either form.
  for (const id of chosen) if (names.has(id)) names.set(String(id), names.get(id)!);
  const options = [...(found.data ?? [])].map((item) => ({ value: valueOf(item), label: <PickerOption name={labelOf(item)} sub={subOf?.(item)} id={valueOf(item)} /> }));

  return (
    <Select
      allowClear
      showSearch
      placeholder={g('picker.search')}
      notFoundContent={<div style={{ padding: '8px 12px', color: 'var(--color-text-3)' }}>{g('picker.empty')}</div>}
      {...rest}
      value={value}
      onChange={onChange}
      filterOption={false}
      onSearch={(text) => setInput(text)}
      onVisibleChange={(visible) => {
        if (visible) setOpened(true);
        else setInput('');
      }}
      loading={found.isFetching}
      renderFormat={resolved.isLoading ? () => '' : chosenLabel(names)}
      options={options}
    />
  );
}
