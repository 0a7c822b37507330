// Finance calls (docs/ORIGINAL-API.md §1.5): bills share the resource verbs under `/finance/bill` (page, detail)
// plus the xlsx export; deal records only page.
import { BILL_EXPORT, BILL_PAGE } from '@fastgate/core/entities/finance';
import { DEAL_RECORD_PAGE } from '@fastgate/core/entities/user';
import { postBlob } from '../../api/http';
import { API } from '../../api/paths';

/** The resource prefix of a `<prefix>/page` path (what the resource hooks take). */
const prefixOf = (pagePath: string) => pagePath.replace(/\/page$/, '');

export const BILL_PREFIX = prefixOf(BILL_PAGE);
export const DEAL_RECORD_PREFIX = prefixOf(DEAL_RECORD_PAGE);

/** docs/ORIGINAL-API.md §2.9: the original console saves bill exports under this name. */
export const BILL_EXPORT_FILE = '账单明细.xlsx';

export interface BillExportBody {
  ids?: string[];
  stat_date?: string[];
  user_id?: number;
}

export const financeApi = {
  exportBills: (body: BillExportBody) => postBlob(`${API}${BILL_EXPORT}`, body),
};
