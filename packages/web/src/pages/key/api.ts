// Model-key calls beyond the shared verbs (docs/ORIGINAL-API.md §3.4): the copy button's explicit reveal.
import { KEY_PREFIX, KeyType } from '@fastgate/core/entities/provider-key';
import { post } from '../../api/http';
import { API } from '../../api/paths';

/** The full key of one model key (`POST /key/copy/field`); list rows only carry the mask. */
export async function revealModelKey(id: string): Promise<string> {
  const { value } = await post<{ value: string }>(`${API}${KEY_PREFIX}/copy/field`, { id, type: KeyType.Model, field: 'key' });
  return value;
}
