// Model agent picker from `GET /model/agent/list` (enabled ones; admins only, so silent for anyone else).
import { MODEL_AGENT_PREFIX, type ModelAgentListItem } from '@fastgate/core/entities/model-agent';
import { ResourceSelect, type ResourceSelectProps } from './ResourceSelect';

type AgentSelectProps = Omit<ResourceSelectProps<ModelAgentListItem>, 'prefix' | 'labelOf'>;

export function AgentSelect({ mode = 'multiple', ...rest }: AgentSelectProps) {
  return <ResourceSelect<ModelAgentListItem> maxTagCount={8} {...rest} mode={mode} prefix={MODEL_AGENT_PREFIX} labelOf={(a) => a.name} silent />;
}
