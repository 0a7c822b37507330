// The list screen of a plain resource, refine style: search form, toolbar, server-side paging, row
// selection with batch actions, a status switch column and row actions. Pages only describe columns.
// Issue 15, tables that fit: each column is at least as wide as its header in the language shown, the
// table is exactly as wide as its shown columns (it scrolls sideways only when that is wider than the
// card, so the fixed actions column never covers another), and the person picks the shown columns and
// the density per screen (ColumnSettings). On a phone the first data column stays fixed instead.
import { useState, type ReactNode } from 'react';
import { Button, Card, Message, Modal, Popconfirm, Space, Table, Tooltip, Typography, type ButtonProps, type TableColumnProps } from '@arco-design/web-react';
import { IconDelete, IconPlus, IconRefresh } from '@arco-design/web-react/icon';
import { useLocation, useNavigate } from 'react-router';
import { PAGE_SIZES } from '@fastgate/core/api';
import { Status } from '@fastgate/core/constants';
import type { RouteName } from '@fastgate/core/routes';
import { openedFrom, routePath } from '../lib/navigation';
import { isShown } from '../lib/table-prefs';
import { textWidth } from '../lib/text-width';
import { useResourceMutation, type ResourcePage } from '../hooks/resource';
import { useIsPhone } from '../hooks/breakpoint';
import { useTablePrefs } from '../hooks/table-prefs';
import { useGlobalLocale } from '../locale';
import { ColumnSettings, type SettingsColumn } from './ColumnSettings';
import { SearchForm, type FilterField } from './SearchForm';
import { StatusSwitch } from './StatusSwitch';
import styles from './ResourceTable.module.css';

/** A column of a resource table; `defaultHidden` ones (remarks, ids, secondary times) start hidden. */
export type ResourceColumn<Row> = TableColumnProps<Row> & { defaultHidden?: boolean };

/** Width of a column that declares none (the table's width is the sum of its columns'). */
const DEFAULT_WIDTH = 140;
/** A cell's horizontal padding (16 px each side) and a pixel of border and rounding. */
const CELL_PADDING = 34;
/** Row action buttons: small text buttons with a tighter padding than Arco's 15 px. */
const ACTION_PADDING = 6;
/** Beyond this the row's actions wrap onto a second line rather than widen the fixed column further. */
const MAX_ACTIONS_WIDTH = 250;
const SELECTION_WIDTH = 40;
/** On a phone the fixed first column leaves the rest of a 390 px screen to the scrolling columns. */
const PHONE_FIRST_WIDTH = 120;

const columnKey = <Row,>(col: TableColumnProps<Row>) => String(col.key ?? col.dataIndex);

/** The declared width, widened to fit a text header on one line. */
function fitWidth<Row>(col: TableColumnProps<Row>): number {
  const declared = typeof col.width === 'number' ? col.width : DEFAULT_WIDTH;
  return typeof col.title === 'string' ? Math.max(declared, Math.ceil(textWidth(col.title)) + CELL_PADDING) : declared;
}

export interface RowAction<Row> {
  key: string;
  label: ReactNode;
  onClick: (row: Row) => void;
  hidden?: (row: Row) => boolean;
  status?: ButtonProps['status'];
}

export interface BatchAction {
  key: string;
  label: ReactNode;
  /** Asked in a modal before `run`; a function gets the number of selected rows to name in the text. */
  confirm?: string | ((count: number) => string);
  run: (ids: string[]) => Promise<unknown> | void;
  status?: ButtonProps['status'];
}

/** Where a row's screens live: route names of core routes.ts; the id travels as `?id=`. */
export interface ResourceRoutes {
  create?: RouteName;
  update?: RouteName;
  detail?: RouteName;
}

export interface ResourceTableProps<Row extends { id: string; status?: number }> {
  page: ResourcePage<Row, FilterField>;
  columns: ResourceColumn<Row>[];
  routes?: ResourceRoutes;
  /** Detail in a drawer or modal instead of a route. */
  onDetail?: (row: Row) => void;
  title?: ReactNode;
  /** The status switch column (default on). */
  statusColumn?: boolean;
  /** Single delete in the row actions (default on). */
  deletable?: boolean;
  /** Built-in batch actions (enable, disable, delete); `false` turns off row selection unless `batchActions` are given. */
  batch?: false | { status?: boolean; delete?: boolean };
  batchActions?: BatchAction[];
  rowActions?: RowAction<Row>[];
  /** Extra toolbar buttons, after Create. */
  toolbar?: ReactNode;
  /** Other prefixes to refresh after writes (lists that embed this resource). */
  alsoInvalidate?: readonly string[];
}

export function ResourceTable<Row extends { id: string; status?: number }>(props: ResourceTableProps<Row>) {
  const { page, columns, routes = {}, onDetail, title, statusColumn = true, deletable = true, batch = {}, batchActions = [], rowActions = [], toolbar, alsoInvalidate } = props;
  const { g } = useGlobalLocale();
  const navigate = useNavigate();
  const location = useLocation();
  const [selected, setSelected] = useState<string[]>([]);
  const phone = useIsPhone();
  const [prefs, setPrefs] = useTablePrefs(location.pathname);
  const remove = useResourceMutation(page.prefix, 'delete', alsoInvalidate);
  const batchOp = useResourceMutation(page.prefix, 'batch', alsoInvalidate);

  // Selection only covers rows on screen: paging or filtering drops the rest.
  const picked = selected.filter((id) => page.rows.some((row) => row.id === id));
  // Forms go back to exactly this list (page, filters) when they are done.
  const open = (route: RouteName, row?: Row) => navigate(`${routePath(route)}${row ? `?id=${encodeURIComponent(row.id)}` : ''}`, { state: openedFrom() });

  const confirmBatch = (content: string, run: () => Promise<unknown> | void) =>
    Modal.confirm({
      title: g('resource.selected', { count: picked.length }),
      content,
      onOk: async () => {
        try {
          await run();
          Message.success(g('common.success'));
          setSelected([]);
        } catch {
          // Shown by the HTTP client.
        }
      },
    });

  const builtIn: BatchAction[] =
    batch === false
      ? []
      : [
          ...(batch.status !== false && statusColumn
            ? [
                { key: 'enable', label: g('resource.enable'), confirm: g('resource.batch.enable.confirm', { count: picked.length }), run: (ids: string[]) => batchOp.mutateAsync({ action: 'status', ids, value: Status.Normal }) },
                { key: 'disable', label: g('resource.disable'), confirm: g('resource.batch.disable.confirm', { count: picked.length }), run: (ids: string[]) => batchOp.mutateAsync({ action: 'status', ids, value: Status.Disabled }), status: 'warning' as const },
              ]
            : []),
          ...(batch.delete !== false
            ? [{ key: 'delete', label: g('resource.delete'), confirm: g('resource.batch.delete.confirm', { count: picked.length }), run: (ids: string[]) => batchOp.mutateAsync({ action: 'delete', ids }), status: 'danger' as const }]
            : []),
        ];
  const allBatch = [...builtIn, ...batchActions];

  const actions: RowAction<Row>[] = [
    ...(routes.update ? [{ key: 'edit', label: g('resource.edit'), onClick: (row: Row) => open(routes.update!, row) }] : []),
    ...(onDetail || routes.detail ? [{ key: 'detail', label: g('resource.detail'), onClick: (row: Row) => (onDetail ? onDetail(row) : open(routes.detail!, row)) }] : []),
    ...rowActions,
  ];

  const actionStyle = { padding: `0 ${ACTION_PADDING}px` };
  // Text, padding and the button's 1 px borders, rounded up.
  const labelWidth = (label: ReactNode) => Math.ceil(typeof label === 'string' ? textWidth(label, 14, 400) : 56) + 2 * ACTION_PADDING + 3;
  // As wide as the widest row's buttons (actions hidden on a row take no room there).
  const rowActionsWidth = (row?: Row) => [...actions.filter((a) => !row || !a.hidden?.(row)).map((a) => a.label), ...(deletable ? [g('resource.delete')] : [])].reduce<number>((sum, label) => sum + labelWidth(label), 0);
  const actionsWidth = Math.min(MAX_ACTIONS_WIDTH, Math.ceil(page.rows.length ? Math.max(...page.rows.map(rowActionsWidth)) : rowActionsWidth()) + CELL_PADDING);

  const dataColumns: ResourceColumn<Row>[] = [
    ...columns,
    ...(statusColumn
      ? [{ title: g('resource.status'), dataIndex: 'status', width: 90, render: (_: unknown, row: Row) => <StatusSwitch prefix={page.prefix} id={row.id} status={row.status ?? Status.Normal} alsoInvalidate={alsoInvalidate} /> }]
      : []),
  ];
  const actionsColumn: TableColumnProps<Row>[] =
    actions.length || deletable
      ? [
          {
            title: g('resource.actions'),
            dataIndex: '__actions',
            // On a phone the first column is the one kept in view; a fixed actions column would leave no room.
            fixed: phone ? undefined : ('right' as const),
            width: Math.max(actionsWidth, fitWidth({ title: g('resource.actions'), width: 0 })),
            render: (_: unknown, row: Row) => (
              <Space size={0} wrap data-testid={`row-actions-${row.id}`}>
                {actions
                  .filter((a) => !a.hidden?.(row))
                  .map((a) => (
                    <Button key={a.key} type="text" size="small" style={actionStyle} status={a.status} onClick={() => a.onClick(row)} data-testid={`row-${a.key}-${row.id}`}>
                      {a.label}
                    </Button>
                  ))}
                {deletable && (
                  <Popconfirm
                    focusLock
                    title={g('resource.delete.confirm')}
                    onOk={async () => {
                      try {
                        await remove.mutateAsync(row.id);
                        Message.success(g('resource.deleted'));
                      } catch {
                        // Shown by the HTTP client.
                      }
                    }}
                  >
                    <Button type="text" size="small" style={actionStyle} status="danger" data-testid={`row-delete-${row.id}`}>
                      {g('resource.delete')}
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]
      : [];

  // The first column names the row: always shown, and on a phone fixed while the rest scrolls.
  const settingsColumns: SettingsColumn[] = [
    ...dataColumns.map((col, i) => ({ key: columnKey(col), title: col.title, defaultHidden: col.defaultHidden, locked: i === 0 })),
    ...actionsColumn.map((col) => ({ key: columnKey(col), title: col.title, locked: true })),
  ];
  const shownColumns: TableColumnProps<Row>[] = [
    ...dataColumns
      .filter((col, i) => i === 0 || isShown(prefs, columnKey(col), col.defaultHidden))
      .map(({ defaultHidden: _hidden, ...col }, i) => (i === 0 && phone ? { ...col, fixed: 'left' as const, width: Math.min(fitWidth(col), PHONE_FIRST_WIDTH) } : { ...col, width: fitWidth(col) })),
    ...actionsColumn,
  ];
  const hasSelection = allBatch.length > 0;
  const tableWidth = shownColumns.reduce((sum, col) => sum + (col.width as number), hasSelection ? SELECTION_WIDTH : 0);

  return (
    <Card bordered={false} title={title} data-testid="resource-table">
      {page.filters.length > 0 && (
        <SearchForm fields={page.filters} values={page.values} onSearch={page.setFilters} onReset={() => page.setFilters({})} />
      )}
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', marginBottom: 16, gap: 12, flexWrap: 'wrap' }}>
        <Space wrap>
          {routes.create && (
            <Button type="primary" icon={<IconPlus />} onClick={() => open(routes.create!)} data-testid="resource-create">
              {g('resource.create')}
            </Button>
          )}
          {toolbar}
          {picked.length > 0 && (
            <Space data-testid="batch-bar">
              <Typography.Text type="secondary">{g('resource.selected', { count: picked.length })}</Typography.Text>
              {allBatch.map((a) => (
                <Button
                  key={a.key}
                  status={a.status}
                  icon={a.key === 'delete' ? <IconDelete /> : undefined}
                  loading={batchOp.isPending}
                  onClick={() => {
                    const text = typeof a.confirm === 'function' ? a.confirm(picked.length) : a.confirm;
                    if (text) confirmBatch(text, () => a.run(picked));
                    else void a.run(picked);
                  }}
                  data-testid={`batch-${a.key}`}
                >
                  {a.label}
                </Button>
              ))}
              <Button type="text" onClick={() => setSelected([])}>
                {g('resource.clearSelection')}
              </Button>
            </Space>
          )}
        </Space>
        <Space>
          <Tooltip content={g('resource.refresh')}>
            <Button shape="circle" icon={<IconRefresh />} loading={page.fetching && !page.loading} onClick={page.refetch} aria-label={g('resource.refresh')} data-testid="resource-refresh" />
          </Tooltip>
          <ColumnSettings columns={settingsColumns} prefs={prefs} onChange={setPrefs} />
        </Space>
      </div>
      <Table<Row>
        rowKey="id"
        loading={page.loading}
        columns={shownColumns}
        data={page.rows}
        className={styles.grid}
        size={prefs.density}
        scroll={{ x: tableWidth }}
        border={false}
        rowSelection={hasSelection ? { type: 'checkbox', fixed: phone, selectedRowKeys: picked, onChange: (keys) => setSelected(keys as string[]) } : undefined}
        pagination={{
          simple: phone,
          current: page.current,
          pageSize: page.pageSize,
          total: page.total,
          sizeCanChange: true,
          sizeOptions: [...PAGE_SIZES],
          showTotal: (total) => g('resource.total', { total }),
          onChange: (current, pageSize) => page.setPaging(current, pageSize),
        }}
        data-testid="resource-table-grid"
      />
    </Card>
  );
}
