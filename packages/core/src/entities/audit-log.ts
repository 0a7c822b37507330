// The audit log (issue 11): console writes, reveals, exports and sign-ins of admins and resellers.
// An admin sees every row, a reseller its own; before/after arrive masked (secrets never leave the server).
import { z } from 'zod';
import { dateRangeFilter, idField, pageSchema } from '../schemas/common';
import { idListField, ownerIdFilter } from '../schemas/usage-limits';

export const AUDIT_PREFIX = '/sys/audit';
export const AUDIT_EXPORT_FILE = '审计日志.xlsx';

export const AUDIT_KINDS = ['write', 'reveal', 'export', 'sign_in', 'sign_out', 'sign_in_failed'] as const;
export type AuditKindValue = (typeof AUDIT_KINDS)[number];

const auditFilterSchema = z.object({
  /** "YYYY-MM-DD HH:mm:ss" pair (a bare date is a whole day). */
  created_at: dateRangeFilter,
  kind: z.union([z.enum(AUDIT_KINDS), z.literal('')]).optional().transform((v) => v || undefined),
  /** The actor (admins only; a reseller's rows are its own anyway). */
  user_id: ownerIdFilter,
  account: z.string().trim().max(100).optional(),
  /** A fragment of the route, e.g. `model/agent`. */
  action: z.string().trim().max(200).optional(),
  table_name: z.string().trim().max(64).optional(),
  record_id: z.string().trim().max(64).optional(),
});
export type AuditFilter = z.infer<typeof auditFilterSchema>;

export const auditPageSchema = pageSchema.extend(auditFilterSchema.shape);
/** Export: `ids` win; otherwise the filter applies. */
export const auditExportSchema = auditFilterSchema.extend({ ids: idListField.optional() });
export const auditDetailSchema = z.object({ id: idField });

export interface AuditLog {
  id: string;
  created_at: string;
  kind: AuditKindValue;
  user_id: number;
  account: string;
  role: string;
  ip: string;
  action: string;
  table_name: string;
  record_ids: string[];
  /** Fields whose values differ between before and after. */
  changed: string[];
}

/** `GET /sys/audit/detail`: the row with its masked values (null when the action had none). */
export interface AuditLogDetail extends AuditLog {
  before: unknown;
  after: unknown;
  input: unknown;
}
