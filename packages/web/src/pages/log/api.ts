// Call-log calls beyond the shared page/detail verbs (docs/ORIGINAL-API.md §1.6): the copy reveal of masked values,
// the xlsx export and the admin batch (ids or a time range).
import { logPath, type LogBatchInput, type LogFilter, type LogKind } from '@fastgate/core/entities/call-log';
import { post, postBlob } from '../../api/http';
import { API } from '../../api/paths';

/** The resource prefix of a kind (`/log/chat`), derived from the core path so the two cannot drift. */
export const logPrefix = (kind: LogKind) => logPath(kind, 'page').replace(/\/page$/, '');

/** The filter as the list sends it (URL values; ids and numbers as the codec typed them). */
export type LogFilterBody = Partial<Record<keyof LogFilter, unknown>>;

export function logApi(kind: LogKind) {
  return {
    /** `creator` = the app key (owner, its reseller, admins); `key` = the provider key (admins). */
    copy: async (id: string, field: 'key' | 'creator') => (await post<{ value: string }>(`${API}${logPath(kind, 'copy/field')}`, { id, field })).value,
    export: (body: LogFilterBody & { ids?: string[] }) => postBlob(`${API}${logPath(kind, 'export')}`, body),
    batch: (body: LogBatchInput) => post<unknown>(`${API}${logPath(kind, 'batch/operate')}`, body),
  };
}

/** RPM/TPM of the chat logs matching `filter` in the last minute; polled, so failures stay quiet. */
