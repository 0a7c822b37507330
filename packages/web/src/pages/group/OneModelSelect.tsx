// One model (forwarding targets): `ModelSelect` is multiple-only.
import { MODEL_PREFIX, type ModelListItem } from '@fastgate/core/entities/model';
import { ResourceSelect, type ResourceSelectProps } from '../../components/ResourceSelect';
import { useGlobalLocale } from '../../locale';

export function OneModelSelect(props: Omit<ResourceSelectProps<ModelListItem>, 'prefix' | 'labelOf' | 'mode'>) {
  const { g } = useGlobalLocale();
  return <ResourceSelect<ModelListItem> placeholder={g('modelSelect.placeholder')} {...props} prefix={MODEL_PREFIX} labelOf={(m) => m.name} silent />;
}
