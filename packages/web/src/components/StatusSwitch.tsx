// Record status as a switch (docs/ORIGINAL-API.md §2.7): checked = 1 normal, unchecked = 2 disabled; the switched
// value is posted to `change/status` and the list of the prefix is refreshed.
import { Switch } from '@arco-design/web-react';
import { Status, type StatusValue } from '@fastgate/core/constants';
import { useResourceMutation } from '../hooks/resource';

export interface StatusSwitchProps {
  prefix: string;
  id: string;
  status: number;
  disabled?: boolean;
  /** Other prefixes whose data shows this record (invalidated too). */
  alsoInvalidate?: readonly string[];
}

export function StatusSwitch({ prefix, id, status, disabled, alsoInvalidate }: StatusSwitchProps) {
  const mutation = useResourceMutation(prefix, 'status', alsoInvalidate);
  const checked = mutation.isPending ? mutation.variables?.status === Status.Normal : status === Status.Normal;
  return (
    <Switch
      size="small"
      checked={checked}
      loading={mutation.isPending}
      disabled={disabled}
      onChange={(on) => mutation.mutate({ id, status: (on ? Status.Normal : Status.Disabled) as StatusValue })}
      data-testid={`status-switch-${id}`}
    />
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
  const mutation = useResourceMutation(prefix, 'public', alsoInvalidate);
  const checked = mutation.isPending ? !!mutation.variables?.is_public : value;
  return (
    <Switch
      size="small"
      checked={checked}
      loading={mutation.isPending}
      disabled={disabled}
      onChange={(on) => mutation.mutate({ id, is_public: on })}
      data-testid={`public-switch-${id}`}
    />
  );
}
