// A picker over `GET <prefix>/list` (docs/ORIGINAL-API.md §1.2 `list`: `{items}`). ModelSelect, CorpSelect,
// AgentSelect and the group / VIP pickers are thin wrappers around it; RemoteSelect (users, resellers, apps:
// searched on the server) shares its look: the name, secondary text, and the id in small print.
import type { ReactNode } from 'react';
import { Select, type SelectProps } from '@arco-design/web-react';
import { useResourceList } from '../hooks/resource';

/** One picker row: the name over what tells equal names apart (account, code), and the id in small print. */
export function PickerOption({ name, sub, id }: { name: string; sub?: string; id?: string | number }) {
  const line = { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } as const;
  return (
    <span className="picker-option" style={{ display: 'flex', alignItems: 'center', gap: 12, minWidth: 0, lineHeight: '18px', padding: sub ? '5px 0' : '9px 0' }}>
      <span style={{ display: 'flex', flexDirection: 'column', minWidth: 0, flex: 1 }}>
        <span style={line}>{name}</span>
        {sub && <span style={{ ...line, color: 'var(--color-text-3)', fontSize: 12 }}>{sub}</span>}
      </span>
      {id !== undefined && id !== '' && <span style={{ color: 'var(--color-text-3)', fontSize: 12, flexShrink: 0 }}>ID {id}</span>}
    </span>
  );
}

/**
 * What a chosen value shows in the box: its name, or "ID 12" when the caller cannot see the record (or
 * it is gone), never a blank.
 */
export function chosenLabel(names: ReadonlyMap<unknown, string>) {
  return (_option: unknown, value: SelectProps['value']): ReactNode => {
    const key = typeof value === 'object' && value !== null && 'value' in value ? (value as { value: unknown }).value : value;
    return names.get(key) ?? `ID ${String(key)}`;
  };
}

export interface ResourceSelectProps<Item> extends Omit<SelectProps, 'options' | 'loading' | 'value' | 'onChange'> {
  prefix: string;
  /** Option text. */
  labelOf: (item: Item) => string;
  /** Secondary option text (a code, an account); searched too. */
  subOf?: (item: Item) => string;
  /** The id shown in small print; the record's `id` by default, `null` for none. */
  idOf?: (item: Item) => string | number | null;
  /**
   * Option value; `id` by default. (Not named `valueOf`: a prop of that name clashes with
   * Object.prototype.valueOf and makes every props object without it a type error.)
   */
  optionValue?: (item: Item) => string | number;
  /** Keeps only some rows (e.g. models of one type). */
  filterItems?: (item: Item) => boolean;
  params?: object;
  /** No toast on failure; the picker shows `unavailableText` instead. */
  silent?: boolean;
  unavailableText?: string;
  value?: SelectProps['value'];
  onChange?: (value: SelectProps['value']) => void;
}

export function ResourceSelect<Item extends { id: string }>({
  prefix,
  labelOf,
  subOf,
  idOf,
  optionValue = (item) => item.id,
  filterItems,
  params,
  silent,
  unavailableText,
  placeholder,
  ...rest
}: ResourceSelectProps<Item>) {
  const list = useResourceList<Item>(prefix, { params, silent });
  const items = (list.data ?? []).filter((item) => !filterItems || filterItems(item));
  const names = new Map<unknown, string>();
  const searchText = new Map<unknown, string>();
  const options = items.map((item) => {
    const value = optionValue(item);
    const id = idOf ? idOf(item) : item.id;
    names.set(value, labelOf(item));
    searchText.set(value, [labelOf(item), subOf?.(item) ?? '', id ?? ''].join(' ').toLowerCase());
    return { value, label: <PickerOption name={labelOf(item)} sub={subOf?.(item)} id={id ?? undefined} /> };
  });
  return (
    <Select
      allowClear
      showSearch
      filterOption={(input, option) => (searchText.get((option?.props as { value?: unknown } | undefined)?.value) ?? '').includes(input.toLowerCase())}
      // Until the list arrives a chosen value shows nothing rather than "ID …".
      renderFormat={list.isLoading ? () => '' : chosenLabel(names)}
      {...rest}
      loading={list.isLoading}
      placeholder={list.isError && unavailableText ? unavailableText : placeholder}
      options={options}
    />
  );
}
