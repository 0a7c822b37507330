// Model agent calls beyond the shared verbs: the explicit reveal of one bound key (issue 11: detail and
// the edit form only carry masks; the server records each reveal in the audit log).
import { MODEL_AGENT_KEY_REVEAL } from '@fastgate/core/entities/model-agent';
import { post } from '../../api/http';
import { API } from '../../api/paths';

export async function revealAgentKey(id: string, keyId: string): Promise<string> {
  const { value } = await post<{ value: string }>(`${API}${MODEL_AGENT_KEY_REVEAL}`, { id, key_id: keyId });
  return value;
}
