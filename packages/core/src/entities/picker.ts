// Searchable pickers for lists too large to load whole (issue 15 part 4): accounts and apps, searched on
// the server by a keyword, at most PICKER_LIMIT rows, always within the caller's data scope
// (docs/SPEC.md §6). `ids` resolves the labels of values already chosen, whatever the keyword.
import { z } from 'zod';
import { ROLES } from '../constants';
import { INT4_MAX } from '../schemas/common';
import { ownerIdFilter } from '../schemas/usage-limits';

export const PICKER_PREFIX = '/picker';
export const PICKER_LIMIT = 20;

/** "3,7,12" (a query string) or [3, 7, 12]: at most PICKER_LIMIT positive ids. */
const idsFilter = z
  .union([z.string().trim().regex(/^\d{1,10}(,\d{1,10})*$|^$/), z.array(z.coerce.number())])
  .optional()
  .transform((v) => (v === undefined || v === '' ? [] : (typeof v === 'string' ? v.split(',') : v).map(Number)))
  .refine((ids) => ids.length <= PICKER_LIMIT && ids.every((id) => Number.isInteger(id) && id >= 1 && id <= INT4_MAX), `<= ${PICKER_LIMIT} ids`);

const keyword = z.string().trim().max(100).optional();

/** `GET /picker/account`: users (and resellers, admins) by name, account, email or exact user_id. */
export const accountPickerSchema = z.object({
  keyword,
  ids: idsFilter,
  role: z.enum(ROLES).optional(),
  /** Only the users of this reseller. */
  rid: ownerIdFilter,
});

export interface AccountOption {
  user_id: number;
  role: string;
  account: string;
  name: string;
  email: string;
}

/** `GET /picker/app`: apps by name or exact app_id, optionally of one owner. */
export const appPickerSchema = z.object({ keyword, ids: idsFilter, user_id: ownerIdFilter });

export interface AppPickerOption {
  app_id: number;
  user_id: number;
  name: string;
}
