// The search form above a resource table, built from filter declarations (Arco Pro search-table layout:
// fields in a three-column grid, Search / Reset on the right). Values come from and go to the URL. Tablets get
// two columns and phones one, labels above the inputs and the buttons under the fields; a phone shows the first
// fields only, the rest behind "more filters".
import { cloneElement, useEffect, useState, type ReactElement } from 'react';
import { Button, Divider, Form, Grid, Input, InputNumber, Select } from '@arco-design/web-react';
import { IconDown, IconRefresh, IconSearch, IconUp } from '@arco-design/web-react/icon';
import { Status } from '@fastgate/core/constants';
import type { FilterSpec, FilterValues } from '../hooks/url-query';
import { useBreakpoint } from '../hooks/breakpoint';
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

/** Fields a phone shows before "more filters". */
const PHONE_FIELDS = 2;

const filled = (value: unknown) => value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0);

export function SearchForm({ fields, values, onSearch, onReset }: SearchFormProps) {
  const { g } = useGlobalLocale();
  const [form] = Form.useForm<FilterValues>();
  const breakpoint = useBreakpoint();
  const [more, setMore] = useState(false);

  // The URL is the source of truth: back/forward and tab switches refill the form. Keyed on content, so a
  // page that rebuilds its declarations on every render does not wipe what the user is typing.
  const snapshot = JSON.stringify(fields.map((f) => [f.field, values[f.field] ?? null]));
  useEffect(() => {
    form.setFieldsValue(Object.fromEntries((JSON.parse(snapshot) as [string, FilterValues[string] | null][]).map(([k, v]) => [k, v ?? undefined])));
  }, [form, snapshot]);

  const submit = () => form.submit();
  const reset = () => {
    form.resetFields();
    onReset();
  };
  const buttons = (
    <>
      <Button type="primary" icon={<IconSearch />} onClick={submit} data-testid="search-submit">
        {g('resource.search')}
      </Button>
      <Button icon={<IconRefresh />} onClick={reset} data-testid="search-reset">
        {g('common.reset')}
      </Button>
    </>
  );

  if (breakpoint === 'desktop') {
    return (
      <div style={{ display: 'flex', marginBottom: 16 }} data-testid="search-form">
        <Form form={form} labelAlign="left" labelCol={{ span: 6 }} wrapperCol={{ span: 18 }} style={{ flex: 1 }} onSubmit={(v) => onSearch(v)}>
          <Grid.Row gutter={24}>
            {fields.map((field) => (
              <Grid.Col span={field.span ?? 8} key={field.field}>
                {/* The label keeps the width it has in a third of the row, so wide fields stay aligned. */}
                <Form.Item label={field.label} field={field.field} {...labelSpans(field.span ?? 8)}>
                  <Control field={field} onEnter={submit} />
                </Form.Item>
              </Grid.Col>
            ))}
          </Grid.Row>
        </Form>
        <Divider type="vertical" style={{ height: 'auto', margin: '0 20px' }} />
        <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
          {buttons}
        </div>
      </div>
    );
  }

  const phone = breakpoint === 'phone';
  const foldable = phone && fields.length > PHONE_FIELDS;
  // Folded fields stay mounted (hidden), so their values from the URL still travel with a search.
  const folded = (index: number) => foldable && !more && index >= PHONE_FIELDS;
  const activeFolded = fields.slice(PHONE_FIELDS).filter((f) => filled(values[f.field])).length;
  return (
    <div style={{ marginBottom: 16 }} data-testid="search-form">
      <Form form={form} layout="vertical" onSubmit={(v) => onSearch(v)}>
        <Grid.Row gutter={16}>
          {fields.map((field, index) => (
            <Grid.Col span={phone || (field.span ?? 8) > 8 ? 24 : 12} key={field.field} style={folded(index) ? { display: 'none' } : undefined}>
              <Form.Item label={field.label} field={field.field} style={{ marginBottom: 12 }}>
                <Control field={field} onEnter={submit} />
              </Form.Item>
            </Grid.Col>
          ))}
        </Grid.Row>
      </Form>
      <div style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 8 }}>
        {buttons}
        {foldable && (
          <Button type="text" icon={more ? <IconUp /> : <IconDown />} onClick={() => setMore(!more)} aria-expanded={more} data-testid="search-more">
            {g(more ? 'resource.fewerFilters' : 'resource.moreFilters')}
            {!more && activeFolded > 0 && ` (${activeFolded})`}
          </Button>
        )}
      </div>
    </div>
  );
}
