// The keys an agent has, in its edit form: masked, each with the copy button (the explicit, recorded
// reveal) and remove/restore. The value is the ids kept; a removed key is unbound when the form is saved.
import { Button, Space, Typography } from '@arco-design/web-react';
import type { AgentKey } from '@fastgate/core/entities/model-agent';
import { MaskedKey } from '../../components/MaskedKey';
import { usePageLocale } from '../../locale';
import { revealAgentKey } from './api';
import locale from './locale';

export interface BoundKeysProps {
  agentId: string;
  keys: readonly AgentKey[];
  value?: string[];
  onChange?: (ids: string[]) => void;
}

export function BoundKeys({ agentId, keys, value = [], onChange }: BoundKeysProps) {
  const t = usePageLocale(locale);
  if (!keys.length) return <Typography.Text type="secondary">{t('agent.detail.keysEmpty')}</Typography.Text>;
  const kept = new Set(value);
  const toggle = (id: string) => onChange?.(kept.has(id) ? value.filter((k) => k !== id) : [...value, id]);
  return (
    <Space direction="vertical" size={4} data-testid="agent-bound-keys">
      {keys.map((k) => {
        const on = kept.has(k.id);
        return (
          <Space key={k.id} size={8} data-testid={`agent-bound-key-${k.id}`}>
            <span style={on ? undefined : { textDecoration: 'line-through', opacity: 0.5 }}>
              <MaskedKey value={k.key} copy={on ? () => revealAgentKey(agentId, k.id) : undefined} />
            </span>
            {on ? (
              <Button size="mini" type="text" status="danger" onClick={() => toggle(k.id)} data-testid={`agent-bound-key-remove-${k.id}`}>
                {t('agent.keys.remove')}
              </Button>
            ) : (
              <>
                <Typography.Text type="warning">{t('agent.keys.removed')}</Typography.Text>
                <Button size="mini" type="text" onClick={() => toggle(k.id)} data-testid={`agent-bound-key-restore-${k.id}`}>
                  {t('agent.keys.restore')}
                </Button>
              </>
            )}
          </Space>
        );
      })}
    </Space>
  );
}
