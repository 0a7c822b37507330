// The list screen of a plain resource, refine style: search form, toolbar, server-side paging, row
// selection with batch actions, a status switch column and row actions. Pages only describe columns.
import { useState, type ReactNode } from 'react';
import { Button, Card, Message, Modal, Popconfirm, Space, Table, Tooltip, Typography, type ButtonProps, type TableColumnProps, type TableProps } from '@arco-design/web-react';
import { IconDelete, IconPlus, IconRefresh } from '@arco-design/web-react/icon';
import { useLocation, useNavigate } from 'react-router';
import { PAGE_SIZES } from '@fastgate/core/api';
import { Status } from '@fastgate/core/constants';
import type { RouteName } from '@fastgate/core/routes';
import { routePath } from '../lib/navigation';
import { useResourceMutation, type ResourcePage } from '../hooks/resource';
import { useGlobalLocale } from '../locale';
import { SearchForm, type FilterField } from './SearchForm';
import { StatusSwitch } from './StatusSwitch';

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
  /** Asked in a modal before `run`; `{count}` is not filled in, pass the final text. */
  confirm?: string;
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
  columns: TableColumnProps<Row>[];
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
  scroll?: TableProps<Row>['scroll'];
}

export function ResourceTable<Row extends { id: string; status?: number }>(props: ResourceTableProps<Row>) {
  const { page, columns, routes = {}, onDetail, title, statusColumn = true, deletable = true, batch = {}, batchActions = [], rowActions = [], toolbar, alsoInvalidate, scroll } = props;
  const { g } = useGlobalLocale();
  const navigate = useNavigate();
  const location = useLocation();
  const [selected, setSelected] = useState<string[]>([]);
  const remove = useResourceMutation(page.prefix, 'delete', alsoInvalidate);
  const batchOp = useResourceMutation(page.prefix, 'batch', alsoInvalidate);

  // Selection only covers rows on screen: paging or filtering drops the rest.
  const picked = selected.filter((id) => page.rows.some((row) => row.id === id));
  // Forms go back to exactly this list (page, filters) when they are done.
  const from = { from: location.pathname + location.search };
  const open = (route: RouteName, row?: Row) => navigate(`${routePath(route)}${row ? `?id=${encodeURIComponent(row.id)}` : ''}`, { state: from });

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

  const allColumns: TableColumnProps<Row>[] = [
    ...columns,
    ...(statusColumn
      ? [{ title: g('resource.status'), dataIndex: 'status', width: 90, render: (_: unknown, row: Row) => <StatusSwitch prefix={page.prefix} id={row.id} status={row.status ?? Status.Normal} alsoInvalidate={alsoInvalidate} /> }]
      : []),
    ...(actions.length || deletable
      ? [
          {
            title: g('resource.actions'),
            dataIndex: '__actions',
            fixed: 'right' as const,
            width: 80 + 60 * actions.length,
            render: (_: unknown, row: Row) => (
              <Space size={0} data-testid={`row-actions-${row.id}`}>
                {actions
                  .filter((a) => !a.hidden?.(row))
                  .map((a) => (
                    <Button key={a.key} type="text" size="small" status={a.status} onClick={() => a.onClick(row)} data-testid={`row-${a.key}-${row.id}`}>
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
                    <Button type="text" size="small" status="danger" data-testid={`row-delete-${row.id}`}>
                      {g('resource.delete')}
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]
      : []),
  ];

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
                  onClick={() => (a.confirm ? confirmBatch(a.confirm, () => a.run(picked)) : void a.run(picked))}
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
        <Tooltip content={g('resource.refresh')}>
          <Button shape="circle" icon={<IconRefresh />} loading={page.fetching && !page.loading} onClick={page.refetch} aria-label={g('resource.refresh')} data-testid="resource-refresh" />
        </Tooltip>
      </div>
      <Table<Row>
        rowKey="id"
        loading={page.loading}
        columns={allColumns}
        data={page.rows}
        scroll={scroll ?? { x: true }}
        border={false}
        rowSelection={allBatch.length ? { type: 'checkbox', selectedRowKeys: picked, onChange: (keys) => setSelected(keys as string[]) } : undefined}
        pagination={{
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
