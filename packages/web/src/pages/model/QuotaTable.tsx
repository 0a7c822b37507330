// An editable price table on Form.List (generation sizes, vision modes, search sizes, Midjourney
// actions): one row per price, add and remove rows, and at most one row marked default (core's
// `only one default` rule), kept so by unmarking the others when one is marked.
import type { ReactNode } from 'react';
import { Button, Checkbox, Form, Table, type TableColumnProps } from '@arco-design/web-react';
import { IconDelete, IconPlus } from '@arco-design/web-react/icon';
import { usePageLocale } from '../../locale';
import locale from './locale';

/** Tables need more room than single inputs: a wider wrapper column for their Form.Item. */
export const TABLE_WRAPPER = { span: 18 };

interface QuotaColumn {
  key: string;
  title: ReactNode;
  width?: number;
  /** The cell: a Form.Item (no label) on `${rowField}.${key}`. */
  render: (rowField: string, index: number) => ReactNode;
}

export interface QuotaTableProps {
  /** The list's field path, e.g. `image_quota.generation_quotas`. */
  field: string;
  columns: QuotaColumn[];
  newRow: () => object;
  /** Adds the "default" column (`is_default`). */
  withDefault?: boolean;
  /** At least one row, else this message. */
  requiredMessage?: string;
  testId: string;
}

interface Row {
  key: number;
  field: string;
  index: number;
}

interface DefaultCheckProps {
  listField: string;
  index: number;
  testId: string;
  value?: boolean;
  onChange?: (checked: boolean) => void;
}

function DefaultCheck({ listField, index, testId, value, onChange }: DefaultCheckProps) {
  const { form } = Form.useFormContext();
  return (
    <Checkbox
      checked={!!value}
      onChange={(checked: boolean) => {
        if (checked) {
          const rows = (form.getFieldValue(listField) as { is_default?: boolean }[] | undefined) ?? [];
          rows.forEach((_, i) => i !== index && form.setFieldValue(`${listField}[${i}].is_default`, false));
        }
        onChange?.(checked);
      }}
      data-testid={testId}
    />
  );
}

export function QuotaTable({ field, columns, newRow, withDefault, requiredMessage, testId }: QuotaTableProps) {
  const t = usePageLocale(locale);
  const rules = requiredMessage ? [{ validator: (rows: unknown[] | undefined, callback: (error?: string) => void) => callback(rows?.length ? undefined : requiredMessage) }] : undefined;
  return (
    <Form.List field={field} rules={rules}>
      {(fields, { add, remove }) => {
        const rows: Row[] = fields.map((f, index) => ({ key: f.key, field: f.field, index }));
        const tableColumns: TableColumnProps<Row>[] = [
          ...columns.map((c) => ({ title: c.title, dataIndex: c.key, width: c.width, render: (_: unknown, row: Row) => c.render(row.field, row.index) })),
          ...(withDefault
            ? [
                {
                  title: t('model.isDefault'),
                  dataIndex: 'is_default',
                  width: 70,
                  render: (_: unknown, row: Row) => (
                    <Form.Item field={`${row.field}.is_default`} style={{ marginBottom: 0 }}>
                      <DefaultCheck listField={field} index={row.index} testId={`${testId}-default-${row.index}`} />
                    </Form.Item>
                  ),
                },
              ]
            : []),
          {
            title: '',
            dataIndex: '__remove',
            width: 60,
            render: (_: unknown, row: Row) => (
              <Button type="text" status="danger" size="small" icon={<IconDelete />} aria-label={t('model.row.remove')} onClick={() => remove(row.index)} data-testid={`${testId}-remove-${row.index}`} />
            ),
          },
        ];
        return (
          <div data-testid={testId}>
            <Table<Row> rowKey="key" size="small" scroll={{ x: true }} border={{ wrapper: true, cell: false }} pagination={false} columns={tableColumns} data={rows} noDataElement={<span>{t('model.table.empty')}</span>} />
            <Button type="dashed" long size="small" icon={<IconPlus />} style={{ marginTop: 8 }} onClick={() => add(newRow())} data-testid={`${testId}-add`}>
              {t('model.row.add')}
            </Button>
          </div>
        );
      }}
    </Form.List>
  );
}

/** A table cell's input bound to `${rowField}.${key}` (no label, no bottom gap; errors still shown). */
export function Cell({ field, rules, children }: { field: string; rules?: Parameters<typeof Form.Item>[0]['rules']; children: ReactNode }) {
  return (
    <Form.Item field={field} rules={rules} style={{ marginBottom: 0 }}>
      {children}
    </Form.Item>
  );
}
