// The signed-in person's own profile, security settings and real-name certification (docs/SPEC.md §2.4 user center).
import type { Certification, SessionUser } from '@fastgate/core/schemas/user-center';
import type { RecoveryCodes, TwoFactorSetup, TwoFactorStatus } from '@fastgate/core/schemas/two-factor';
import { get, post } from './http';
import { API, USER_INFO_URL } from './paths';
import { resourceApi } from './resource';

export interface CertificationCreate {
  real_name: string;
  id_type: 'id_card' | 'passport' | 'other';
  id_number: string;
  remark?: string;
}

export const certificationApi = {
  ...resourceApi<Certification, CertificationCreate>('/user/certification'),
  withdraw: (id: string) => post<null>(`${API}/user/certification/withdraw`, { id }),
};

export const userApi = {
  /** `silent`: the guard handles a failure itself (logout, then login with a redirect query). */
  info: (silent = false) => get<SessionUser>(USER_INFO_URL, undefined, { silent }),
  updateInfo: (body: { name: string; profile?: string }) => post<null>(`${API}/user/update/info`, body),
  changePassword: (body: { old_password: string; new_password: string }) => post<null>(`${API}/user/change/password`, body),
  changeEmail: (body: { email: string; code: string; password: string }) => post<null>(`${API}/user/change/email`, body),
  changePhone: (body: { phone: string; code: string; password: string }) => post<null>(`${API}/user/change/phone`, body),
};

/** Two-factor sign-in (TOTP) of the signed-in account: setup → confirm → enabled; off with password + code. */
export const twoFactorApi = {
  status: () => get<TwoFactorStatus>(`${API}/user/two-factor/status`),
  setup: (password: string) => post<TwoFactorSetup>(`${API}/user/two-factor/setup`, { password }),
  confirm: (code: string) => post<RecoveryCodes>(`${API}/user/two-factor/confirm`, { code }),
  disable: (password: string, code: string) => post<null>(`${API}/user/two-factor/disable`, { password, code }),
  recoveryCodes: (password: string, code: string) => post<RecoveryCodes>(`${API}/user/two-factor/recovery-codes`, { password, code }),
};
