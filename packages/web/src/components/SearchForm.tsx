// The search form above a resource table, built from filter declarations (Arco Pro search-table layout:
// fields in a three-column grid, Search / Reset on the right). Values come from and go to the URL.
import { cloneElement, useEffect, type ReactElement } from 'react';
import { Button, Divider, Form, Grid, Input, InputNumber, Select } from '@arco-design/web-react';
import { IconRefresh, IconSearch } from '@arco-design/web-react/icon';
import { Status } from '@fastgate/core/constants';
import type { FilterSpec, FilterValues } from '../hooks/url-query';
import { useGlobalLocale } from '../locale';
import { DateRange } from './DateRange';

interface FilterOption {
  label: string;
  value: string | number;
}

/** One search field. `kind` picks the control; `custom` renders `render()` (it receives value/onChange). */
export interface FilterField extends FilterSpec {
  label: string;
  placeholder?: string;
  /** `select` options. */
  options?: readonly FilterOption[];
  /** `select`: free input besides the options (codes outside a known list). */
  allowCreate?: boolean;
  /** `custom`: an input element such as `<CorpSelect />` or `<ModelSelect />`. */
  render?: () => ReactElement;
  /** `dateRange`: full datetimes (log req_time). */
  showTime?: boolean;
  /** Grid columns of 24 (default 8, a third of the row); a datetime range needs 16 to show both ends. */
  span?: 8 | 16 | 24;
}

export interface SearchFormProps {
  fields: readonly FilterField[];
  values: FilterValues;
  onSearch: (values: FilterValues) => void;
  onReset: () => void;
}

interface ControlProps {
  field: FilterField;
  onEnter: () => void;
  /** Injected by Form.Item and passed on to the real input. */
  value?: unknown;
  onChange?: (...args: unknown[]) => void;
}

function Control({ field, onEnter, ...bound }: ControlProps) {
  const { g } = useGlobalLocale();
  const bind = bound as Record<string, never>;
  const select = field.placeholder ?? g('resource.placeholder.select', { label: field.label });
  const input = field.placeholder ?? g('resource.placeholder.input', { label: field.label });
  const testId = `filter-${field.field}`;
  switch (field.kind) {
    case 'text':
      return <Input {...bind} allowClear placeholder={input} onPressEnter={onEnter} data-testid={testId} />;
    case 'number':
      return <InputNumber {...bind} placeholder={input} style={{ width: '100%' }} data-testid={testId} />;
    case 'status':
      return (
        <Select {...bind} allowClear placeholder={select} data-testid={testId}>
          <Select.Option value={Status.Normal}>{g('resource.status.1')}</Select.Option>
          <Select.Option value={Status.Disabled}>{g('resource.status.2')}</Select.Option>
        </Select>
      );
    case 'bool':
      // docs/ORIGINAL-API.md §3.7: boolean page filters travel as "true"/"false" strings.
      return (
        <Select {...bind} allowClear placeholder={select} data-testid={testId}>
          <Select.Option value="true">{g('resource.yes')}</Select.Option>
          <Select.Option value="false">{g('resource.no')}</Select.Option>
        </Select>
      );
    case 'select':
      return (
        <Select {...bind} allowClear showSearch allowCreate={field.allowCreate} mode={field.multiple ? 'multiple' : undefined} placeholder={select} options={field.options?.map((o) => ({ ...o }))} data-testid={testId} />
      );
    case 'dateRange':
      return <DateRange {...bind} showTime={field.showTime} data-testid={testId} />;
    case 'custom': {
      const element = field.render?.();
      return element ? cloneElement(element, bind) : null;
    }
  }
}

function labelSpans(span: number) {
  const label = (6 * 8) / span;
  return { labelCol: { span: label }, wrapperCol: { span: 24 - label } };
}

export function SearchForm({ fields, values, onSearch, onReset }: SearchFormProps) {
  const { g } = useGlobalLocale();
  const [form] = Form.useForm<FilterValues>();

  // The URL is the source of truth: back/forward and tab switches refill the form. Keyed on content, so a
  // page that rebuilds its declarations on every render does not wipe what the user is typing.
  const snapshot = JSON.stringify(fields.map((f) => [f.field, values[f.field] ?? null]));
  useEffect(() => {
    form.setFieldsValue(Object.fromEntries((JSON.parse(snapshot) as [string, FilterValues[string] | null][]).map(([k, v]) => [k, v ?? undefined])));
  }, [form, snapshot]);

  return (
    <div style={{ display: 'flex', marginBottom: 16 }} data-testid="search-form">
      <Form
        form={form}
        labelAlign="left"
        labelCol={{ span: 6 }}
        wrapperCol={{ span: 18 }}
        style={{ flex: 1 }}
        onSubmit={(v) => onSearch(v)}
      >
        <Grid.Row gutter={24}>
          {fields.map((field) => (
            <Grid.Col span={field.span ?? 8} key={field.field}>
              {/* The label keeps the width it has in a third of the row, so wide fields stay aligned. */}
              <Form.Item label={field.label} field={field.field} {...labelSpans(field.span ?? 8)}>
                <Control field={field} onEnter={() => form.submit()} />
              </Form.Item>
            </Grid.Col>
          ))}
        </Grid.Row>
      </Form>
      <Divider type="vertical" style={{ height: 'auto', margin: '0 20px' }} />
      <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
        <Button type="primary" icon={<IconSearch />} onClick={() => form.submit()} data-testid="search-submit">
          {g('resource.search')}
        </Button>
        <Button
          icon={<IconRefresh />}
          onClick={() => {
            form.resetFields();
            onReset();
          }}
          data-testid="search-reset"
        >
          {g('common.reset')}
        </Button>
      </div>
    </div>
  );
}
