// Pieces the agent, provider-key and group screens share: the agent picker, name tags and the
// auto-disabled flag (SPEC §4: keys and agents are auto-disabled after repeated errors).
import { Space, Tag, Tooltip, Typography } from '@arco-design/web-react';
import { MODEL_AGENT_PREFIX, type ModelAgentListItem } from '@fastgate/core/entities/model-agent';
import { ResourceSelect, type ResourceSelectProps } from '../../components/ResourceSelect';
import { usePageLocale } from '../../locale';
import locale from './locale';

export type AgentSelectProps = Omit<ResourceSelectProps<ModelAgentListItem>, 'prefix' | 'labelOf'>;

/** Model agents from `GET /model/agent/list` (enabled ones; admins only, so silent for anyone else). */
export function AgentSelect({ mode = 'multiple', ...rest }: AgentSelectProps) {
  return <ResourceSelect<ModelAgentListItem> maxTagCount={8} {...rest} mode={mode} prefix={MODEL_AGENT_PREFIX} labelOf={(a) => a.name} silent />;
}

/** Referenced records by name (models, agents); the first `max` as tags, the rest in a tooltip. */
export function NameTags({ names, max = 3, color }: { names: readonly string[] | undefined; max?: number; color?: string }) {
  const list = (names ?? []).filter(Boolean);
  if (!list.length) return <Typography.Text type="secondary">-</Typography.Text>;
  const rest = list.slice(max);
  return (
    <Space size={4} wrap>
      {list.slice(0, max).map((name, i) => (
        <Tag key={`${name}-${i}`} size="small" color={color}>
          {name}
        </Tag>
      ))}
      {rest.length > 0 && (
        <Tooltip content={rest.join(', ')}>
          <Tag size="small">+{rest.length}</Tag>
        </Tooltip>
      )}
    </Space>
  );
}

/** "Auto-disabled" as a red tag whose tooltip gives the recorded reason; a dash when not. */
export function AutoDisabledTag({ disabled, reason, testId }: { disabled: boolean; reason: string | undefined; testId?: string }) {
  const t = usePageLocale(locale);
  if (!disabled) return <Typography.Text type="secondary">{t('agent.autoDisabled.no')}</Typography.Text>;
  return (
    <Tooltip content={reason ? t('agent.autoDisabled.reason', { reason }) : t('agent.autoDisabled.noReason')}>
      <Tag color="red" size="small" data-testid={testId}>
        {t('agent.autoDisabled.yes')}
      </Tag>
    </Tooltip>
  );
}

/** Yes/no flags as a tag (only "yes" is coloured, so lists read at a glance). */
export function FlagTag({ value, yes, no }: { value: boolean; yes: string; no: string }) {
  return value ? (
    <Tag size="small" color="arcoblue">
      {yes}
    </Tag>
  ) : (
    <Typography.Text type="secondary">{no}</Typography.Text>
  );
}
