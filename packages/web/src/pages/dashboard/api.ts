// The dashboard calls of docs/ORIGINAL-API.md §1.4. Everything is scoped by the server to the caller's role.
import {
  DASHBOARD_BASE_DATA,
  DASHBOARD_CALL_DATA,
  DASHBOARD_MARGIN,
  DASHBOARD_MODEL_PERCENT,
  DASHBOARD_TOP,
  type BaseData,
  type Margin,
  type ModelPercent,
  type TopItem,
  type TopType,
  type TrendPoint,
} from '@fastgate/core/entities/dashboard';
import { EXPENSE_PATH, QUOTA_WARNING_PATH, type Expense } from '@fastgate/core/entities/user';
import { get, post } from '../../api/http';
import { API } from '../../api/paths';

const withDays = (path: string, days: number) => `${API}${path.replace(':days', String(days))}`;

export interface QuotaWarningBody {
  quota_warning: boolean;
  /** Dollars. */
  warning_threshold: number;
  /** Days. */
  expire_warning_threshold: number;
}

export const dashboardApi = {
  baseData: () => get<BaseData>(`${API}${DASHBOARD_BASE_DATA}`),
  trend: async (days: number) => (await get<{ items?: TrendPoint[] }>(withDays(DASHBOARD_CALL_DATA, days))).items ?? [],
  top: async (days: number, data_type: TopType) => (await get<{ items?: TopItem[] }>(`${API}${DASHBOARD_TOP}`, { days, data_type })).items ?? [],
  modelPercent: (days: number) => get<ModelPercent>(withDays(DASHBOARD_MODEL_PERCENT, days)),
  expense: () => get<Expense>(`${API}${EXPENSE_PATH}`),
  margin: (days: number) => get<Margin>(withDays(DASHBOARD_MARGIN, days)),
  saveQuotaWarning: (body: QuotaWarningBody) => post<null>(`${API}${QUOTA_WARNING_PATH}`, body),
};

/** react-query keys: one root so a save can refresh the expense card alone. */
export const dashboardKeys = {
  baseData: ['dashboard', 'base'] as const,
  trend: (days: number) => ['dashboard', 'trend', days] as const,
  top: (days: number, type: TopType) => ['dashboard', 'top', days, type] as const,
  modelPercent: (days: number) => ['dashboard', 'model-percent', days] as const,
  expense: ['dashboard', 'expense'] as const,
  margin: (days: number) => ['dashboard', 'margin', days] as const,
};
