// Audit log calls beyond the shared verbs: the streamed xlsx export (issue 11).
import { AUDIT_PREFIX, type AuditFilter } from '@fastgate/core/entities/audit-log';
import { postBlob } from '../../../api/http';
import { API } from '../../../api/paths';

export type AuditFilterBody = Partial<Record<keyof AuditFilter, unknown>>;

export const auditApi = {
  export: (body: AuditFilterBody & { ids?: string[] }) => postBlob(`${API}${AUDIT_PREFIX}/export`, body),
};
