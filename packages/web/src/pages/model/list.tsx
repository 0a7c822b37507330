// Model list (docs/SPEC.md §2.2, admin): filters, prices in dollars, status switch, batch agent / forward / fallback
// switches beside enable, disable and delete (docs/ORIGINAL-API.md §2.8), and the detail drawer.
import { useMemo, useState } from 'react';
import { GROUP_PREFIX } from '@fastgate/core/entities/group';
import { MODEL_AGENT_PREFIX } from '@fastgate/core/entities/model-agent';
import { MODEL_PREFIX, type Model } from '@fastgate/core/entities/model';
import { ResourceTable, type BatchAction } from '../../components/ResourceTable';
import { useResourceMutation, useResourcePage } from '../../hooks/resource';
import { useScreenTitle } from '../../hooks/screen-title';
import { useGlobalLocale, usePageLocale } from '../../locale';
import { useTypeOptions } from '../../components/model-types';
import { modelColumns, modelFilters } from './columns';
import { ModelDetailDrawer } from './detail';
import locale from './locale';

const SWITCHES = [
  ['agent', 'model.batch.agentOn', 'model.batch.agentOff'],
  ['forward', 'model.batch.forwardOn', 'model.batch.forwardOff'],
  ['fallback', 'model.batch.fallbackOn', 'model.batch.fallbackOff'],
] as const;

const RELATED = [GROUP_PREFIX, MODEL_AGENT_PREFIX] as const;

export default function ModelList() {
  const t = usePageLocale(locale);
  const { g, locale: lang } = useGlobalLocale();
  const typeOptions = useTypeOptions();
  const filters = useMemo(() => modelFilters(t, typeOptions), [t, typeOptions]);
  const columns = useMemo(() => modelColumns(t, lang, (b) => g(b ? 'resource.yes' : 'resource.no')), [t, lang, g]);
  const page = useResourcePage<Model>(MODEL_PREFIX, filters);
  const title = useScreenTitle();
  const batch = useResourceMutation(MODEL_PREFIX, 'batch', RELATED);
  const [detail, setDetail] = useState<string>();

  // docs/ORIGINAL-API.md §2.8: `{action: agent|forward|fallback, ids, value: true|false}`.
  const batchActions: BatchAction[] = SWITCHES.flatMap(([action, on, off]) =>
    ([true, false] as const).map((value) => ({
      key: `${action}-${value ? 'on' : 'off'}`,
      label: t(value ? on : off),
      confirm: (count: number) => t('model.batch.confirm', { action: t(value ? on : off), count }),
      run: (ids: string[]) => batch.mutateAsync({ action, ids, value }),
    })),
  );

  return (
    <>
      <ResourceTable
        page={page}
        title={title}
        columns={columns}
        routes={{ create: 'model.create', update: 'model.update' }}
        onDetail={(row) => setDetail(row.id)}
        batchActions={batchActions}
        alsoInvalidate={RELATED}
      />
      <ModelDetailDrawer id={detail} onClose={() => setDetail(undefined)} />
    </>
  );
}
