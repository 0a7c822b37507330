// Task lists (docs/SPEC.md §2.2, all roles, one screen per kind): filters, the docs/SPEC.md §3.11 task fields, reserved and
// charged quota, and the detail drawer. While a task on screen is queued or synthesizing the page
// refreshes itself, so a task is seen moving to completed without reloading.
import { useEffect, useMemo, useState, type ComponentType } from 'react';
import { Typography } from '@arco-design/web-react';
import { TASK_KINDS, type Task, type TaskKind } from '@fastgate/core/entities/task';
import { ADMIN_RESELLER } from '@fastgate/core/routes';
import { usePermission } from '../../components/Permission';
import { ResourceTable } from '../../components/ResourceTable';
import { useResourcePage } from '../../hooks/resource';
import { useGlobalLocale, usePageLocale } from '../../locale';
import { isPending, taskColumns, taskFilters } from './columns';
import { TaskDetailDrawer } from './detail';
import locale from './locale';
import { taskPrefix } from './prefix';

const TASK_REFRESH_MS = 5000;

function TaskList({ kind }: { kind: TaskKind }) {
  const t = usePageLocale(locale);
  const { tk } = useGlobalLocale();
  const showOwner = usePermission(ADMIN_RESELLER);
  const filters = useMemo(() => taskFilters(t, showOwner), [t, showOwner]);
  const columns = useMemo(() => taskColumns(t, showOwner), [t, showOwner]);
  const page = useResourcePage<Task>(taskPrefix(kind), filters);
  const [detail, setDetail] = useState<string>();

  const pending = page.rows.some((row) => isPending(row.status));
  const { refetch } = page;
  useEffect(() => {
    if (!pending) return;
    const timer = setInterval(refetch, TASK_REFRESH_MS);
    return () => clearInterval(timer);
  }, [pending, refetch]);

  return (
    <>
      <ResourceTable
        page={page}
        columns={columns}
        title={tk(`menu.task.${kind}`)}
        onDetail={(row) => setDetail(row.id)}
        statusColumn={false}
        deletable={false}
        batch={false}
        toolbar={
          pending && (
            <Typography.Text type="secondary" data-testid="task-auto-refresh">
              {t('task.autoRefresh', { s: TASK_REFRESH_MS / 1000 })}
            </Typography.Text>
          )
        }
      />
      <TaskDetailDrawer kind={kind} id={detail} showOwner={showOwner} onClose={() => setDetail(undefined)} />
    </>
  );
}

/** One page component per kind (route names `task.<kind>`), made once so React keeps their identity. */
export const TASK_LISTS: Record<TaskKind, ComponentType> = Object.fromEntries(
  TASK_KINDS.map((kind): [TaskKind, ComponentType] => {
    const Page = () => <TaskList kind={kind} />;
    Page.displayName = `TaskList(${kind})`;
    return [kind, Page];
  }),
) as Record<TaskKind, ComponentType>;
