// Corp picker from `GET /corp/list` (enabled corps by sort; non-admins see only public ones).
import { CORP_PREFIX } from '@fastgate/core/entities/corp';
import { useGlobalLocale } from '../locale';
import { ResourceSelect, type ResourceSelectProps } from './ResourceSelect';

export interface CorpOption {
  id: string;
  name: string;
  code: string;
}

export type CorpSelectProps = Omit<ResourceSelectProps<CorpOption>, 'prefix' | 'labelOf' | 'subOf'>;

export function CorpSelect({ placeholder, ...rest }: CorpSelectProps) {
  const { g } = useGlobalLocale();
  return <ResourceSelect<CorpOption> {...rest} prefix={CORP_PREFIX} labelOf={(c) => c.name} subOf={(c) => (c.code === c.name ? '' : c.code)} placeholder={placeholder ?? g('corpSelect.placeholder')} />;
}
