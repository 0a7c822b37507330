// Model agent detail (`/agent/detail?id=`): every field of the record, its bound keys masked with a copy
// button each; the server answers masks only, and a copy is an explicit reveal it records (issue 11).
// The agent's and each key's circuit breaker, and a test button per key (issue 13).
import { Button, Descriptions, Space, Tag, Typography } from '@arco-design/web-react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { Status } from '@fastgate/core/constants';
import { LbStrategy } from '@fastgate/core/entities/catalogue';
import { MODEL_AGENT_PREFIX, type ModelAgent } from '@fastgate/core/entities/model-agent';
import { backTo, openedFrom, routePath } from '../../lib/navigation';
import { DetailCard } from '../../components/DetailCard';
import { recordProblem } from '../../components/record-state';
import { MaskedKey } from '../../components/MaskedKey';
import { useResourceDetail } from '../../hooks/resource';
import { useGlobalLocale, usePageLocale } from '../../locale';
import { revealAgentKey } from './api';
import { BreakerTag } from '../../components/health/BreakerTag';
import { useBreakers, useKeyTest } from '../../components/health/breakers';
import locale from './locale';
import { FlagTag } from '../../components/FlagTag';
import { AutoDisabledTag } from '../../components/health/AutoDisabledTag';
import { NameTags } from '../../components/NameTags';
import { detailColumns } from '../../lib/layout';

export default function AgentDetail() {
  const t = usePageLocale(locale);
  const { g } = useGlobalLocale();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  const id = search.get('id');
  const detail = useResourceDetail<ModelAgent>(MODEL_AGENT_PREFIX, id);
  const a = detail.data;
  const yesNo = (v: boolean | undefined) => <FlagTag value={!!v} yes={t('agent.yes')} no={t('agent.no')} />;

  const pairs = a?.replace_models.map((m, i) => `${m} → ${a.target_models[i] ?? ''}`) ?? [];
  const keys = a?.keys ?? [];
  const health = useBreakers(a ? [a.id, ...keys.map((k) => k.id)] : []);
  const test = useKeyTest();

  return (
    <DetailCard
      subject={a?.name}
      problem={recordProblem(id, detail)}
      loading={detail.isFetching}
      onBack={() => navigate(backTo(location.state, routePath('agent.list')))}
      onEdit={a && (() => navigate(`${routePath('agent.update')}?id=${encodeURIComponent(a.id)}`, { state: openedFrom() }))}
      testId="agent-detail"
    >
      {a && (
        <Space direction="vertical" size={24} style={{ width: '100%' }}>
          <Descriptions
            title={t('agent.basic')}
            column={detailColumns(2)}
            border
            data={[
              { label: t('agent.name'), value: a.name },
              { label: t('agent.corp'), value: a.corp_name || '-' },
              { label: t('agent.baseUrl'), value: <Typography.Text copyable>{a.base_url}</Typography.Text> },
              { label: t('agent.path'), value: a.path || '-' },
              { label: t('agent.wireApi'), value: t(`agent.wireApi.${a.wire_api === 'responses' ? 'responses' : 'chat'}`) },
              { label: t('agent.weight'), value: a.weight },
              { label: t('agent.status'), value: <Tag color={a.status === Status.Normal ? 'green' : 'gray'}>{g(a.status === Status.Normal ? 'resource.status.1' : 'resource.status.2')}</Tag> },
              { label: t('agent.autoDisabled'), value: <AutoDisabledTag disabled={a.is_auto_disabled} reason={a.auto_disabled_reason} /> },
              { label: t('agent.health.agent'), value: <BreakerTag info={health.get(a.id)} testId="agent-breaker" /> },
              { label: t('agent.neverDisable'), value: yesNo(a.is_never_disable) },
              { label: t('agent.createdAt'), value: a.created_at },
              { label: t('agent.updatedAt'), value: a.updated_at },
              { label: t('agent.remark'), value: a.remark || '-', span: 2 },
            ]}
          />
          <Descriptions
            title={t('agent.routing')}
            column={1}
            border
            data={[
              { label: t('agent.models'), value: <NameTags names={a.model_names} max={50} /> },
              { label: t('agent.lbStrategy'), value: t(a.lb_strategy === LbStrategy.Weight ? 'agent.lbStrategy.2' : 'agent.lbStrategy.1') },
              { label: t('agent.modelReplace'), value: a.is_enable_model_replace ? <NameTags names={pairs} max={50} color="purple" /> : yesNo(false) },
              { label: t('agent.fallbackModels'), value: <NameTags names={a.fallback_model_names} max={50} /> },
            ]}
          />
          <Descriptions
            title={g('common.aside', { text: t('agent.keySection'), aside: a.key_count })}
            column={1}
            border
            data={[
              {
                label: t('agent.keys'),
                value: keys.length ? (
                  <Space direction="vertical" size={4} data-testid="agent-detail-keys">
                    {keys.map((k) => (
                      <Space key={k.id} size={12}>
                        <MaskedKey value={k.key} copy={() => revealAgentKey(a.id, k.id)} />
                        <BreakerTag info={health.get(k.id)} testId={`key-breaker-${k.id}`} />
                        <Button size="mini" loading={test.isPending && test.variables === k.id} onClick={() => test.mutate(k.id)} data-testid={`key-test-${k.id}`}>
                          {t('agent.test')}
                        </Button>
                      </Space>
                    ))}
                  </Space>
                ) : (
                  <Typography.Text type="secondary">{t('agent.detail.keysEmpty')}</Typography.Text>
                ),
              },
              { label: t('agent.keyAgentsOnly'), value: yesNo(a.is_agents_only) },
              { label: t('agent.keyNeverDisable'), value: yesNo(a.is_never_disable_key) },
            ]}
          />
        </Space>
      )}
    </DetailCard>
  );
}
