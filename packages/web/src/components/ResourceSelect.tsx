// A picker over `GET <prefix>/list` (docs/ORIGINAL-API.md §1.2 `list`: `{items}`). ModelSelect, CorpSelect and the
// group / agent / app pickers of the next screens are thin wrappers around it.
import { Select, type SelectProps } from '@arco-design/web-react';
import { useResourceList } from '../hooks/resource';

export interface ResourceSelectProps<Item> extends Omit<SelectProps, 'options' | 'loading' | 'value' | 'onChange'> {
  prefix: string;
  /** Option text. */
  labelOf: (item: Item) => string;
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
  return (
    <Select
      allowClear
      showSearch
      filterOption={(input, option) => String((option?.props as { children?: unknown } | undefined)?.children ?? '').toLowerCase().includes(input.toLowerCase())}
      {...rest}
      loading={list.isLoading}
      placeholder={list.isError && unavailableText ? unavailableText : placeholder}
      options={items.map((item) => ({ label: labelOf(item), value: optionValue(item) }))}
    />
  );
}
