// Model detail (docs/SPEC.md §2.2 model.detail): every setting of the record, readable — prices in dollars, ids as
// names. Shown in a drawer from the list, and as its own screen for links (`/model/detail?id=`).
import { Alert, Button, Descriptions, Drawer, Space, Spin, Table, Tag, Typography } from '@arco-design/web-react';
import type { ReactNode } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { ForwardRule } from '@fastgate/core/entities/catalogue';
import { Status } from '@fastgate/core/constants';
import { MODEL_PREFIX, type Model } from '@fastgate/core/entities/model';
import { formatUsd } from '@fastgate/core/money';
import { backTo, openedFrom, routePath } from '../../lib/navigation';
import { DetailCard } from '../../components/DetailCard';
import { recordProblem } from '../../components/record-state';
import { useResourceDetail } from '../../hooks/resource';
import { useGlobalLocale, usePageLocale } from '../../locale';
import { typeLabel } from '../../components/model-types';
import { Names, OnOff } from './columns';
import locale from './locale';
import { PriceList } from '../../components/price/PriceList';
import { ProtocolMatrix } from './ProtocolMatrix';
import { quotaKeyOf, searchStyle } from '../../components/price/pricing';
import { detailColumns } from '../../lib/layout';

type Row = { label: ReactNode; value: ReactNode };

function Block({ title, data }: { title: string; data: Row[] }) {
  return <Descriptions title={title} column={detailColumns(2)} border data={data} labelStyle={{ width: 130 }} style={{ marginBottom: 20 }} />;
}

/** The rows of a price table (sizes, modes, actions) with dollars per row. */
function PriceTables({ model }: { model: Model }) {
  const t = usePageLocale(locale);
  const key = quotaKeyOf(model.type, model.corp_code);
  const usd = (q: number) => formatUsd(q);
  const def = (d: boolean) => (d ? <Tag size="small" color="arcoblue">{t('model.isDefault')}</Tag> : null);
  const table = <R extends object>(title: string, columns: { title: string; render: (r: R) => ReactNode }[], rows: R[] | undefined, testId: string) =>
    rows?.length ? (
      <div style={{ marginBottom: 16 }} data-testid={testId}>
        <Typography.Text type="secondary">{title}</Typography.Text>
        <Table<R> size="small" pagination={false} border={{ wrapper: true, cell: true }} rowKey={(r) => JSON.stringify(r)} data={rows} columns={columns.map((c, i) => ({ title: c.title, dataIndex: String(i), render: (_: unknown, r: R) => c.render(r) }))} />
      </div>
    ) : null;
  if (key === 'image_quota' && model.image_quota?.billing_method === 2)
    return table(
      t('model.generationQuotas'),
      [
        { title: t('model.quality'), render: (r) => r.quality || '-' },
        { title: `${t('model.width')} × ${t('model.height')}`, render: (r) => `${r.width} × ${r.height}` },
        { title: t('model.fixedQuota'), render: (r) => `${usd(r.fixed_quota)} (${r.fixed_quota})` },
        { title: t('model.isDefault'), render: (r) => def(r.is_default) },
      ],
      model.image_quota.generation_quotas,
      'detail-generation',
    );
  if (key === 'multimodal_quota') {
    const q = model.multimodal_quota;
    return (
      <>
        {table(t('model.visionQuotas'), [{ title: t('model.mode'), render: (r) => r.mode }, { title: t('model.fixedQuota'), render: (r) => usd(r.fixed_quota) }, { title: t('model.isDefault'), render: (r) => def(r.is_default) }], q?.vision_quotas, 'detail-vision')}
        {searchStyle(model.corp_code) === 'sizes' &&
          table(t('model.searchQuotas'), [{ title: t('model.searchContextSize'), render: (r) => r.search_context_size }, { title: t('model.fixedQuota'), render: (r) => usd(r.fixed_quota) }, { title: t('model.isDefault'), render: (r) => def(r.is_default) }], q?.search_quotas, 'detail-search')}
      </>
    );
  }
  if (key === 'midjourney_quotas')
    return table(
      t('model.midjourneyQuotas'),
      [
        { title: t('model.actionName'), render: (r) => r.name },
        { title: t('model.action'), render: (r) => r.action },
        { title: t('model.actionPath'), render: (r) => r.path || '-' },
        { title: t('model.fixedQuota'), render: (r) => usd(r.fixed_quota) },
      ],
      model.midjourney_quotas,
      'detail-midjourney',
    );
  return null;
}

export function ModelDetailView({ model }: { model: Model }) {
  const t = usePageLocale(locale);
  const { g, locale: lang } = useGlobalLocale();
  const yes = (b: boolean) => g(b ? 'resource.yes' : 'resource.no');
  const dash = (v: string | undefined | null) => v || '-';
  const tokens = (n: number) => (n ? `${n.toLocaleString(lang)} tokens` : '-');
  const f = model.forward_config;
  const basics: Row[] = [
    { label: t('model.name'), value: model.name },
    { label: t('model.model'), value: <Typography.Text code>{model.model}</Typography.Text> },
    { label: t('model.corp'), value: model.corp_code ? `${dash(model.corp_name)} (${model.corp_code})` : dash(model.corp_name) },
    { label: t('model.type'), value: typeLabel(model.type, lang) },
    { label: t('model.baseUrl'), value: dash(model.base_url) },
    { label: t('model.path'), value: dash(model.path) },
    { label: t('model.contextWindow'), value: tokens(model.context_window) },
    { label: t('model.maxOutputTokens'), value: tokens(model.max_output_tokens) },
    { label: t('model.requestDataFormat'), value: t(`model.dataFormat.${model.request_data_format === 2 ? 2 : 1}`) },
    { label: t('model.responseDataFormat'), value: t(`model.dataFormat.${model.response_data_format === 2 ? 2 : 1}`) },
    { label: t('model.isPublic'), value: yes(model.is_public) },
    {
      label: t('model.status'),
      value: (
        <Tag size="small" color={model.status === Status.Normal ? 'green' : 'red'}>
          {g(model.status === Status.Normal ? 'resource.status.1' : 'resource.status.2')}
        </Tag>
      ),
    },
    { label: t('model.groups'), value: <Names names={model.group_names ?? []} max={20} /> },
    { label: t('model.remark'), value: dash(model.remark) },
    { label: t('model.createdAt'), value: model.created_at },
    { label: t('model.updatedAt'), value: model.updated_at },
  ];
  const p = model.preset_config;
  const preset: Row[] = [
    { label: t('model.isEnablePresetConfig'), value: <OnOff on={model.is_enable_preset_config} t={t} /> },
    ...(model.is_enable_preset_config && p
      ? [
          { label: t('model.isSupportSystemRole'), value: t(p.is_support_system_role ? 'model.supported' : 'model.unsupported') },
          { label: t('model.isSupportStream'), value: t(p.is_support_stream ? 'model.supported' : 'model.unsupported') },
          { label: t('model.maxTokensRange'), value: `${p.min_tokens || 0} ~ ${p.max_tokens || '∞'}` },
          { label: t('model.systemRolePrompt'), value: <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{dash(p.system_role_prompt)}</Typography.Paragraph> },
        ]
      : []),
  ];
  const agents: Row[] = [
    { label: t('model.isEnableModelAgent'), value: <OnOff on={model.is_enable_model_agent} t={t} /> },
    { label: t('model.lbStrategy'), value: t(`model.lbStrategy.${model.lb_strategy === 2 ? 2 : 1}`) },
    { label: t('model.modelAgents'), value: <Names names={model.model_agent_names ?? []} max={20} /> },
  ];
  const forward: Row[] = [{ label: t('model.isEnableForward'), value: <OnOff on={model.is_enable_forward} t={t} /> }];
  if (f) {
    forward.push({ label: t('model.forwardRule'), value: t(`model.forwardRule.${f.forward_rule === 2 ? 2 : f.forward_rule === 3 ? 3 : 1}`) });
    if (f.forward_rule === ForwardRule.Keywords) {
      forward.push({ label: t('model.matchRule'), value: f.match_rule.map((m) => t(`model.matchRule.${m === 1 ? 1 : 2}`)).join(', ') || '-' });
      if (f.decision_model) forward.push({ label: t('model.decisionModel'), value: dash(f.decision_model_name) });
      forward.push({
        label: t('model.keywords'),
        value: (
          <Space direction="vertical" size={2} data-testid="detail-keywords">
            {f.keywords.map((k, i) => (
              <span key={`${k}-${i}`}>
                <Typography.Text code>{k}</Typography.Text> → {dash(f.target_model_names[i])}
              </span>
            ))}
          </Space>
        ),
      });
    } else if (f.target_model) forward.push({ label: t('model.targetModel'), value: dash(f.target_model_name) });
    else forward.push({ label: t('model.targetModels'), value: <Names names={f.target_model_names} max={20} /> });
    if (f.forward_rule === ForwardRule.ContentLength) forward.push({ label: t('model.contentLength'), value: f.content_length });
  }
  const fb = model.fallback_config;
  const fallback: Row[] = [
    { label: t('model.isEnableFallback'), value: <OnOff on={model.is_enable_fallback} t={t} /> },
    { label: t('model.fallbackAgent'), value: dash(fb?.model_agent_name) },
    { label: t('model.fallbackModel'), value: dash(fb?.model_name) },
  ];
  return (
    <div data-testid="model-detail">
      <Block title={t('model.section.basics')} data={basics} />
      <Typography.Title heading={6} style={{ marginTop: 0 }}>
        {t('model.section.pricing')}
      </Typography.Title>
      <div style={{ marginBottom: 12 }}>
        <PriceList model={model} testId="detail-prices" />
      </div>
      <PriceTables model={model} />
      <Block title={t('model.section.preset')} data={preset} />
      <Block title={t('model.section.agents')} data={agents} />
      <ProtocolMatrix upstreams={model.upstream_wires ?? []} />
      <Block title={t('model.section.forward')} data={forward} />
      <Block title={t('model.section.fallback')} data={fallback} />
    </div>
  );
}

function DetailBody({ id }: { id: string | undefined }) {
  const t = usePageLocale(locale);
  const detail = useResourceDetail<Model>(MODEL_PREFIX, id);
  if (detail.isError) return <Alert type="error" content={t('model.detail.notFound')} />;
  return <Spin loading={detail.isLoading} style={{ display: 'block', minHeight: 120 }}>{detail.data && <ModelDetailView model={detail.data} />}</Spin>;
}

/** Opens the update form; it comes back here (the list with its filters, or this screen) when done. */
function useEdit() {
  const navigate = useNavigate();
  return (id: string) => navigate(`${routePath('model.update')}?id=${encodeURIComponent(id)}`, { state: openedFrom() });
}

/** The list's detail drawer. */
export function ModelDetailDrawer({ id, onClose }: { id: string | undefined; onClose: () => void }) {
  const t = usePageLocale(locale);
  const edit = useEdit();
  return (
    <Drawer
      width={760}
      visible={!!id}
      title={t('model.detail.title')}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={() => id && edit(id)} data-testid="detail-edit">
          {t('model.detail.edit')}
        </Button>
      }
      data-testid="model-detail-drawer"
    >
      {id && <DetailBody id={id} />}
    </Drawer>
  );
}

/** `/model/detail?id=`: the same view as a screen. */
export default function ModelDetailPage() {
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  const id = search.get('id');
  const detail = useResourceDetail<Model>(MODEL_PREFIX, id);
  const model = detail.data;
  const edit = useEdit();
  const back = () => navigate(backTo(location.state, routePath('model.list')));
  return (
    <DetailCard subject={model?.name} problem={recordProblem(id, detail)} loading={detail.isFetching} onBack={back} onEdit={model && (() => edit(model.id))} testId="model-detail">
      {model && <ModelDetailView model={model} />}
    </DetailCard>
  );
}
