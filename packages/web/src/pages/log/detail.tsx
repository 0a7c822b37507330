// A call log in a drawer (docs/ORIGINAL-API.md §5.12: log details open inside the list, not on a route): basics with
// the copy buttons each role may use, timings, how the spend came about (each line item of the price),
// the request messages as text,
// the prompt and completion, and every attempt of the same trace.
import type { ReactNode } from 'react';
import { Descriptions, Divider, Drawer, Space, Spin, Table, Tag, Typography, type TableColumnProps } from '@arco-design/web-react';
import { unitPriceUsd, type CallLogDetail, type LineItem, type LogKind, type SpendBreakdown } from '@fastgate/core/entities/call-log';
import { QUOTA_PER_USD } from '@fastgate/core/constants';
import { quotaToUsd } from '@fastgate/core/money';
import { CopyButton } from '../../components/CopyButton';
import { MaskedKey } from '../../components/MaskedKey';
import { useResourceDetail } from '../../hooks/resource';
import { tm, useGlobalLocale, usePageLocale } from '../../locale';
import { formatDollars, formatTokens } from '../../components/price/pricing';
import { logApi, logPrefix } from './api';
import { Attempts } from './Attempts';
import { usd } from '../../components/Usd';
import { LogStatusTag, ms, type T, type Viewer } from './columns';
import locale from './locale';
import { hasMessages, messageTurns } from './messages';
import { detailColumns } from '../../lib/layout';

/** Display arithmetic only (the charge itself is the server's integer): a few decimals, no float noise. */
const dec = (n: number) => String(Number(n.toFixed(6)));

const textBlock = (text: string, testId: string) => (
  <Typography.Paragraph
    style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', background: 'var(--color-fill-2)', padding: '8px 12px', borderRadius: 4, margin: 0, maxHeight: 320, overflow: 'auto' }}
    data-testid={testId}
  >
    {text}
  </Typography.Paragraph>
);

/** "Input", "Cache write (1 h)", "Image in (low)", "… (above 200K tokens)": what one line item is for. */
function itemLabel(item: LineItem): string {
  const what = tm(`log.line.${item.kind}`) + (item.detail ? ` (${item.detail})` : '');
  return item.tier ? `${what} · ${tm('log.line.tier', { tokens: formatTokens(item.tier) })}` : what;
}

/** Each line item with its price (the quota of the item before the call's one rounding and its discount). */
function LineItems({ spend, t }: { spend: SpendBreakdown; t: T }) {
  const items = spend.line_items;
  const sum = Number(items.reduce((s, i) => s + i.quota, 0).toPrecision(12));
  const base = Math.ceil(sum);
  const columns: TableColumnProps<LineItem>[] = [
    { title: t('log.detail.item'), dataIndex: 'kind', render: (_: unknown, i) => itemLabel(i) },
    { title: t('log.detail.quantity'), dataIndex: 'quantity', align: 'right', render: (q: number) => q.toLocaleString('en-US', { maximumFractionDigits: 6 }) },
    { title: t('log.detail.unitPrice'), dataIndex: 'unit_price', align: 'right', render: (_: unknown, i) => `${formatDollars(unitPriceUsd(i))} ${tm(`log.per.${i.unit}`)}` },
    { title: t('log.detail.amount'), dataIndex: 'quota', align: 'right', render: (q: number) => formatDollars(quotaToUsd(q)) },
  ];
  return (
    <>
      <Table<LineItem> rowKey={(i) => `${i.kind}-${i.detail ?? ''}-${i.unit_price}`} size="small" border={{ wrapper: true, cell: false }} pagination={false} columns={columns} data={items} data-testid="log-detail-items" />
      <Typography.Paragraph type="secondary" style={{ margin: '10px 0 0' }} data-testid="log-detail-formula">
        {t('log.detail.itemsFormula', { sum: dec(sum), base, discount: dec(spend.discount), charged: spend.total_price })}
      </Typography.Paragraph>
    </>
  );
}

function Spend({ spend, t }: { spend: SpendBreakdown; t: T }) {
  const { g } = useGlobalLocale();
  const charged = (
    <div style={{ marginTop: 8 }}>
      {t('log.detail.charged')}
      {g('common.colon')}
      <Typography.Text bold data-testid="log-detail-charged">{usd(spend.total_price)}</Typography.Text>
    </div>
  );
  if (spend.line_items?.length) {
    const tokens = [
      { label: t('log.promptTokens'), value: spend.prompt_tokens },
      { label: t('log.cachedTokens'), value: spend.cached_tokens },
      { label: t('log.cacheWriteTokens'), value: spend.cache_write_tokens },
      { label: t('log.completionTokens'), value: spend.completion_tokens },
      { label: t('log.reasoningTokens'), value: spend.reasoning_tokens },
      { label: t('log.discount'), value: `${dec(spend.discount * 100)}%` },
    ];
    return (
      <>
        <Descriptions column={detailColumns(3)} border size="small" data={tokens} style={{ marginBottom: 12 }} />
        <LineItems spend={spend} t={t} />
        {charged}
      </>
    );
  }
  // Logs written before line items were kept: the two-ratio formula.
  // No token ratios: a failed attempt that was never priced (nothing to explain), or a price per call,
  // image, second or character, which the token formula would not explain.
  if (!spend.prompt_ratio && !spend.completion_ratio) {
    return (
      <>
        <Descriptions column={detailColumns(2)} border size="small" data={[{ label: t('log.discount'), value: `${dec(spend.discount * 100)}%` }]} />
        {spend.total_price > 0 && (
          <Typography.Paragraph type="secondary" style={{ margin: '10px 0 0' }}>
            {t('log.detail.unitPriced')}
          </Typography.Paragraph>
        )}
        {charged}
      </>
    );
  }
  const raw = (spend.prompt_tokens * spend.prompt_ratio + spend.completion_tokens * spend.completion_ratio) * spend.discount;
  return (
    <>
      <Descriptions
        column={detailColumns(3)}
        border
        size="small"
        data={[
          { label: t('log.promptTokens'), value: spend.prompt_tokens },
          { label: t('log.detail.promptRatio'), value: dec(spend.prompt_ratio) },
          { label: t('log.cachedTokens'), value: spend.cached_tokens },
          { label: t('log.completionTokens'), value: spend.completion_tokens },
          { label: t('log.detail.completionRatio'), value: dec(spend.completion_ratio) },
          { label: t('log.discount'), value: `${dec(spend.discount * 100)}%` },
        ]}
      />
      <Typography.Paragraph type="secondary" style={{ margin: '10px 0 4px' }}>
        {t('log.detail.formula')}
      </Typography.Paragraph>
      <Typography.Text code data-testid="log-detail-formula">
        ({spend.prompt_tokens} × {dec(spend.prompt_ratio)} + {spend.completion_tokens} × {dec(spend.completion_ratio)}) × {dec(spend.discount)} ÷ {QUOTA_PER_USD} = ${dec(raw / QUOTA_PER_USD)}
      </Typography.Text>
      {charged}
    </>
  );
}

function Messages({ messages, t }: { messages: unknown; t: T }) {
  if (!hasMessages(messages)) return <Typography.Text type="secondary">{t('log.detail.messages.none')}</Typography.Text>;
  const turns = messageTurns(messages);
  if (!turns) return textBlock(typeof messages === 'string' ? messages : JSON.stringify(messages, null, 2), 'log-detail-messages');
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="log-detail-messages">
      {turns.map((turn, i) => (
        <div key={i}>
          <Tag size="small" color={turn.role === 'user' ? 'arcoblue' : turn.role === 'assistant' ? 'green' : 'gray'} style={{ marginBottom: 4 }}>
            {turn.role}
          </Tag>
          {textBlock(turn.text, `log-detail-message-${i}`)}
        </div>
      ))}
    </Space>
  );
}

function Body({ log, kind, viewer, t }: { log: CallLogDetail; kind: LogKind; viewer: Viewer; t: T }) {
  const api = logApi(kind);
  const { admin, showOwner } = viewer;
  const section = (title: string, children: ReactNode) => (
    <>
      <Divider orientation="left" style={{ margin: '20px 0 12px' }}>
        {title}
      </Divider>
      {children}
    </>
  );
  const rows: ({ label: ReactNode; value: ReactNode } | false)[] = [
    {
      label: t('log.traceId'),
      value: (
        <Space size={2}>
          <span data-testid="log-detail-trace">{log.trace_id}</span>
          <CopyButton fetch={log.trace_id} />
        </Space>
      ),
    },
    { label: t('log.status'), value: <LogStatusTag status={log.status} t={t} /> },
    { label: t('log.reqTime'), value: log.req_time },
    { label: t('log.detail.createdAt'), value: log.created_at },
    showOwner && { label: t('log.userId'), value: log.user_id },
    { label: t('log.appId'), value: log.app_id },
    { label: t('log.creator'), value: <MaskedKey value={log.creator} copy={() => api.copy(log.id, 'creator')} testId="log-detail-creator" /> },
    { label: t('log.model'), value: <span data-testid="log-detail-model">{log.model}</span> },
    admin && { label: t('log.realModel'), value: log.real_model || '-' },
    { label: t('log.corp'), value: log.corp_name || '-' },
    { label: t('log.group'), value: log.group_name || '-' },
    { label: t('log.stream'), value: log.stream ? t('log.yes') : t('log.no') },
    { label: t('log.detail.endpoint'), value: log.endpoint || '-' },
    { label: t('log.detail.clientIp'), value: log.client_ip || '-' },
    admin && { label: t('log.detail.remoteIp'), value: log.remote_ip || '-' },
    admin && { label: t('log.agent'), value: log.model_agent_name || '-' },
    admin && { label: t('log.providerKey'), value: <MaskedKey value={log.key} copy={log.key ? () => api.copy(log.id, 'key') : undefined} testId="log-detail-key" /> },
    { label: t('log.detail.retryCount'), value: log.retry.retry_count },
  ];
  return (
    <div data-testid="log-detail">
      <Descriptions column={detailColumns(2)} border size="small" labelStyle={{ width: 110 }} data={rows.filter((r): r is { label: ReactNode; value: ReactNode } => r !== false)} />
      {log.err_msg && (
        <Typography.Paragraph type="error" style={{ marginTop: 12, whiteSpace: 'pre-wrap' }} data-testid="log-detail-error">
          {log.err_msg}
        </Typography.Paragraph>
      )}
      {section(
        t('log.detail.timing'),
        <Descriptions
          column={detailColumns(4)}
          border
          size="small"
          data={[
            { label: t('log.connTime'), value: ms(t, log.conn_time) },
            { label: t('log.duration'), value: ms(t, log.duration) },
            { label: t('log.totalTime'), value: ms(t, log.total_time) },
            ...(admin ? [{ label: t('log.internalTime'), value: ms(t, log.internal_time) }] : []),
          ]}
        />,
      )}
      {section(t('log.detail.spend'), <Spend spend={log.spend} t={t} />)}
      {section(t('log.detail.messages'), <Messages messages={log.messages} t={t} />)}
      {section(t('log.detail.prompt'), log.prompt ? textBlock(log.prompt, 'log-detail-prompt') : <Typography.Text type="secondary">{t('log.detail.empty')}</Typography.Text>)}
      {section(
        t('log.detail.completion'),
        log.completion ? textBlock(log.completion, 'log-detail-completion') : <Typography.Text type="secondary">{t('log.detail.empty')}</Typography.Text>,
      )}
      {section(t('log.detail.attempts', { count: log.attempts.length }), <Attempts attempts={log.attempts} current={log.id} admin={admin} t={t} />)}
    </div>
  );
}

export function LogDetailDrawer({ kind, id, viewer, onClose }: { kind: LogKind; id: string | undefined; viewer: Viewer; onClose: () => void }) {
  const t = usePageLocale(locale);
  const detail = useResourceDetail<CallLogDetail>(logPrefix(kind), id);
  return (
    <Drawer width={880} visible={!!id} title={t('log.detail.title')} onCancel={onClose} footer={null} unmountOnExit data-testid="log-detail-drawer">
      <Spin loading={detail.isLoading} style={{ display: 'block', minHeight: 120 }}>
        {detail.data && <Body log={detail.data} kind={kind} viewer={viewer} t={t} />}
      </Spin>
    </Drawer>
  );
}
