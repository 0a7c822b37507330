// Every upstream attempt of one trace (retries and the final answer), in order; the opened one is marked.
import { Table, Tag, Typography, type TableColumnProps } from '@arco-design/web-react';
import type { CallLogAttempt } from '@fastgate/core/entities/call-log';
import { MaskedKey } from '../../components/MaskedKey';
import { usd } from '../../components/Usd';
import { LogStatusTag, ms, type T } from './columns';

export function Attempts({ attempts, current, admin, t }: { attempts: CallLogAttempt[]; current: string; admin: boolean; t: T }) {
  const columns: (TableColumnProps<CallLogAttempt> | false)[] = [
    {
      title: t('log.detail.attempt'),
      dataIndex: 'attempt',
      width: 100,
      render: (n: number, row) => (
        <span style={{ whiteSpace: 'nowrap' }}>
          {n + 1}
          {row.id === current && (
            <Tag size="small" color="arcoblue" style={{ marginLeft: 4 }}>
              {t('log.detail.current')}
            </Tag>
          )}
        </span>
      ),
    },
    { title: t('log.status'), dataIndex: 'status', width: 80, render: (status: number) => <LogStatusTag status={status} t={t} /> },
    {
      title: t('log.model'),
      dataIndex: 'model',
      width: 150,
      render: (model: string, row) => (row.real_model && row.real_model !== model ? `${model} → ${row.real_model}` : model),
    },
    admin && { title: t('log.agent'), dataIndex: 'model_agent_name', width: 110, render: (name?: string) => name || '-' },
    admin && { title: t('log.providerKey'), dataIndex: 'key', width: 170, render: (key?: string) => <MaskedKey value={key} /> },
    { title: t('log.connTime'), dataIndex: 'conn_time', width: 90, align: 'right', render: (n: number) => ms(t, n) },
    { title: t('log.totalTime'), dataIndex: 'total_time', width: 90, align: 'right', render: (n: number) => ms(t, n) },
    { title: t('log.spend'), dataIndex: 'total_price', width: 100, align: 'right', render: (q: number) => usd(q) },
    {
      title: t('log.detail.errMsg'),
      dataIndex: 'err_msg',
      render: (msg: string) =>
        msg ? (
          <Typography.Text type="error" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
            {msg}
          </Typography.Text>
        ) : (
          '-'
        ),
    },
  ];
  return (
    <Table<CallLogAttempt>
      rowKey="id"
      size="small"
      border={{ wrapper: true, cell: false }}
      pagination={false}
      scroll={{ x: true }}
      columns={columns.filter((c): c is TableColumnProps<CallLogAttempt> => c !== false)}
      data={attempts}
      data-testid="log-detail-attempts"
    />
  );
}
