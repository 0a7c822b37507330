// Which client protocols a model can serve (issue 12): per ingress protocol, native or converted over
// its upstreams, and which features hold. Computed by core/protocols.ts from what the model's upstreams
// speak, the same table docs/PROTOCOLS.md explains.
import { Table, Tag, Typography } from '@arco-design/web-react';
import { FEATURES, INGRESS_PATHS, INGRESS_PROTOCOLS, modelProtocols, type IngressProtocol, type UpstreamWire } from '@fastgate/core/protocols';
import { useGlobalLocale, usePageLocale } from '../../locale';
import locale from './locale';

export function ProtocolMatrix({ upstreams }: { upstreams: UpstreamWire[] }) {
  const t = usePageLocale(locale);
  const { g } = useGlobalLocale();
  const support = modelProtocols(upstreams);
  const mark = (on: boolean) => <Tag size="small" color={on ? 'green' : 'gray'}>{on ? '✓' : '✗'}</Tag>;
  return (
    <div style={{ marginBottom: 20 }} data-testid="detail-protocols">
      <Typography.Title heading={6} style={{ marginTop: 0 }}>
        {t('model.section.protocols')}
      </Typography.Title>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {t('model.protocols.upstreams')}
        {g('common.colon')}
        {upstreams.length ? upstreams.map((u) => t(`model.wire.${u}`)).join(', ') : '-'}
      </Typography.Paragraph>
      <Table<IngressProtocol>
        size="small"
        pagination={false}
        border={{ wrapper: true, cell: true }}
        // Wider than a phone: it scrolls sideways there, the protocol column staying in place.
        scroll={{ x: 880 }}
        rowKey={(p) => p}
        data={[...INGRESS_PROTOCOLS]}
        columns={[
          {
            title: t('model.protocols.ingress'),
            dataIndex: 'name',
            width: 300,
            fixed: 'left' as const,
            render: (_: unknown, p) => (
              <div>
                <div>{t(`model.ingress.${p}`)}</div>
                <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
                  {INGRESS_PATHS[p]}
                </Typography.Text>
              </div>
            ),
          },
          {
            title: t('model.protocols.mode'),
            dataIndex: 'mode',
            width: 100,
            render: (_: unknown, p) => {
              const s = support[p];
              if (!s) return <Tag size="small">{t('model.protocols.none')}</Tag>;
              return <Tag size="small" color={s.native ? 'arcoblue' : 'orange'}>{t(s.native ? 'model.protocols.native' : 'model.protocols.converted')}</Tag>;
            },
          },
          ...FEATURES.map((f) => ({ title: t(`model.feature.${f}`), dataIndex: f, width: 96, render: (_: unknown, p: IngressProtocol) => (support[p] ? mark(support[p].features[f]) : '-') })),
        ]}
      />
    </div>
  );
}
