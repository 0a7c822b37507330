// Model agent list (docs/SPEC.md §2.2, admin): the generic resource table with the agent columns and filters; the
// detail is its own screen (`agent.detail`).
import { useMemo } from 'react';
import { MODEL_AGENT_PREFIX, type ModelAgent } from '@fastgate/core/entities/model-agent';
import { KEY_PREFIX } from '@fastgate/core/entities/provider-key';
import { ResourceTable } from '../../components/ResourceTable';
import { useResourcePage } from '../../hooks/resource';
import { useScreenTitle } from '../../hooks/screen-title';
import { usePageLocale } from '../../locale';
import { agentColumns, agentFilters } from './columns';
import locale from './locale';

export default function AgentList() {
  const t = usePageLocale(locale);
  const filters = useMemo(() => agentFilters(t), [t]);
  const columns = useMemo(() => agentColumns(t), [t]);
  const page = useResourcePage<ModelAgent>(MODEL_AGENT_PREFIX, filters);
  const title = useScreenTitle();
  return (
    <ResourceTable
      page={page}
      title={title}
      columns={columns}
      routes={{ create: 'agent.create', update: 'agent.update', detail: 'agent.detail' }}
      // Deleting an agent unbinds (and drops) its keys.
      alsoInvalidate={[KEY_PREFIX]}
    />
  );
}
