// Models picker (multi-select of model ids) from `GET /model/list`. Silent on failure: a role that may not
// list models, or a server without the model API, gets an empty picker instead of an error toast.
import { MODEL_PREFIX, type ModelListItem } from '@fastgate/core/entities/model';
import { useGlobalLocale } from '../locale';
import { ResourceSelect, type ResourceSelectProps } from './ResourceSelect';

export type ModelSelectProps = Omit<ResourceSelectProps<ModelListItem>, 'prefix' | 'labelOf'> & {
  labelOf?: (item: ModelListItem) => string;
};

export function ModelSelect({ mode = 'multiple', labelOf = (m) => m.name, placeholder, ...rest }: ModelSelectProps) {
  const { g } = useGlobalLocale();
  return (
    <ResourceSelect<ModelListItem>
      maxTagCount={8}
      {...rest}
      prefix={MODEL_PREFIX}
      mode={mode}
      labelOf={labelOf}
      silent
      unavailableText={g('modelSelect.unavailable')}
      placeholder={placeholder ?? g('modelSelect.placeholder')}
    />
  );
}
