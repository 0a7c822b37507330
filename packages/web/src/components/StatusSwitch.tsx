// Record status as a switch (docs/ORIGINAL-API.md §2.7): checked = 1 normal, unchecked = 2 disabled; the switched
// value is posted to `change/status` and the list of the prefix is refreshed. Disabling asks first and says
// what it does to traffic (issue 15 part 5); enabling does not. Every change confirms with a toast; a
// failed one leaves the switch where it was (the HTTP client shows the error).
import { useState } from 'react';
import { useLocation } from 'react-router';
import { Message, Popconfirm, Switch } from '@arco-design/web-react';
import { Status, type StatusValue } from '@fastgate/core/constants';
import { APP_PREFIX } from '@fastgate/core/entities/app';
import { CORP_PREFIX } from '@fastgate/core/entities/corp';
import { GROUP_PREFIX } from '@fastgate/core/entities/group';
import { MODEL_AGENT_PREFIX } from '@fastgate/core/entities/model-agent';
import { MODEL_PREFIX } from '@fastgate/core/entities/model';
import { KEY_PREFIX } from '@fastgate/core/entities/provider-key';
import { SITE_CONFIG_PREFIX } from '@fastgate/core/entities/site-config';
import { RESELLER_PREFIX, USER_PREFIX } from '@fastgate/core/entities/user';
import { VIP_PREFIX } from '@fastgate/core/entities/vip';
import { useResourceMutation } from '../hooks/resource';
import { routePath } from '../lib/navigation';
import { useGlobalLocale, type GlobalKey } from '../locale';

/** What disabling a record of each prefix does (checked against the gateway: admit.ts, resolve.ts, pick.ts). */
const IMPACT: Record<string, GlobalKey> = {
  [MODEL_PREFIX]: 'statusSwitch.impact.model',
  [MODEL_AGENT_PREFIX]: 'statusSwitch.impact.agent',
  [KEY_PREFIX]: 'statusSwitch.impact.providerKey',
  [APP_PREFIX]: 'statusSwitch.impact.app',
  [CORP_PREFIX]: 'statusSwitch.impact.corp',
  [USER_PREFIX]: 'statusSwitch.impact.user',
  [RESELLER_PREFIX]: 'statusSwitch.impact.reseller',
  [GROUP_PREFIX]: 'statusSwitch.impact.group',
  [VIP_PREFIX]: 'statusSwitch.impact.vip',
  [SITE_CONFIG_PREFIX]: 'statusSwitch.impact.site',
};

/** `/key` serves model keys and app keys alike; the screen tells which. */
function useImpact(prefix: string): GlobalKey {
  const { pathname } = useLocation();
  if (prefix === KEY_PREFIX && pathname.startsWith(routePath('app.key'))) return 'statusSwitch.impact.appKey';
  return IMPACT[prefix] ?? 'statusSwitch.impact.default';
}

export interface StatusSwitchProps {
  prefix: string;
  id: string;
  status: number;
  disabled?: boolean;
  /** Other prefixes whose data shows this record (invalidated too). */
  alsoInvalidate?: readonly string[];
}

export function StatusSwitch({ prefix, id, status, disabled, alsoInvalidate }: StatusSwitchProps) {
  const { g } = useGlobalLocale();
  const impact = useImpact(prefix);
  const mutation = useResourceMutation(prefix, 'status', alsoInvalidate);
  const [asking, setAsking] = useState(false);
  const checked = mutation.isPending ? mutation.variables?.status === Status.Normal : status === Status.Normal;
  const change = async (on: boolean) => {
    try {
      await mutation.mutateAsync({ id, status: (on ? Status.Normal : Status.Disabled) as StatusValue });
      Message.success(g(on ? 'statusSwitch.enabled' : 'statusSwitch.disabled'));
    } catch {
      // Shown by the HTTP client; the switch stays as it was.
    }
  };
  return (
    <Popconfirm
      popupVisible={asking}
      // The popup opens from the switch's change handler only (never for enabling).
      onVisibleChange={(visible) => !visible && setAsking(false)}
      trigger={[]}
      title={g('statusSwitch.confirm.title')}
      content={<div style={{ maxWidth: 280 }} data-testid="status-confirm-text">{g(impact)}</div>}
      okText={g('statusSwitch.confirm.ok')}
      okButtonProps={{ status: 'danger', ...({ 'data-testid': 'status-confirm-ok' } as object) }}
      cancelButtonProps={{ ...({ 'data-testid': 'status-confirm-cancel' } as object) }}
      onOk={async () => {
        await change(false);
        setAsking(false);
      }}
      onCancel={() => setAsking(false)}
    >
      <Switch
        size="small"
        checked={checked}
        loading={mutation.isPending}
        disabled={disabled}
        onChange={(on) => (on ? void change(true) : setAsking(true))}
        data-testid={`status-switch-${id}`}
      />
    </Popconfirm>
  );
}

export interface PublicSwitchProps {
  prefix: string;
  id: string;
  value: boolean;
  disabled?: boolean;
  alsoInvalidate?: readonly string[];
}

/** The `is_public` flag of corps, groups, models, VIP levels: posts `change/public {id, is_public}`. */
export function PublicSwitch({ prefix, id, value, disabled, alsoInvalidate }: PublicSwitchProps) {
  const { g } = useGlobalLocale();
  const mutation = useResourceMutation(prefix, 'public', alsoInvalidate);
  const checked = mutation.isPending ? !!mutation.variables?.is_public : value;
  return (
    <Switch
      size="small"
      checked={checked}
      loading={mutation.isPending}
      disabled={disabled}
      onChange={(on) => mutation.mutate({ id, is_public: on }, { onSuccess: () => Message.success(g(on ? 'publicSwitch.on' : 'publicSwitch.off')) })}
      data-testid={`public-switch-${id}`}
    />
  );
}
