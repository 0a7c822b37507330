// Sign-in, registration and verification codes (docs/ORIGINAL-API.md §4, §1.9).
import type { Channel, EmailCodeAction, SmsCodeAction } from '@fastgate/core/constants';
import type { LoginResult, OpenSysConfig } from '@fastgate/core/schemas/auth';
import type { StepUpResult, TwoFactorChallenge } from '@fastgate/core/schemas/two-factor';
import { get, post } from './http';
import { API } from './paths';

const domain = () => window.location.hostname;

export interface LoginBody {
  account: string;
  password?: string;
  code?: string;
  channel: Channel;
  method: 'account' | 'code';
}

export interface AccountBody {
  account: string;
  password: string;
  code: string;
  channel: Channel;
}

export const authApi = {
  /** A session, or (two-factor accounts) a ticket for `loginTotp`. */
  login: (body: LoginBody) => post<LoginResult | TwoFactorChallenge>(`${API}/auth/login`, { ...body, terminal: 'web', domain: domain() }),
  loginTotp: (ticket: string, code: string) => post<LoginResult>(`${API}/auth/login/totp`, { ticket, code, domain: domain() }),
  stepUp: (code: string) => post<StepUpResult>(`${API}/auth/step-up`, { code }),
  logout: () => post<null>(`${API}/auth/logout`, {}, { silent: true }),
  register: (body: AccountBody) => post<null>(`${API}/auth/register`, { ...body, terminal: 'web', domain: domain() }),
  forget: (body: AccountBody) => post<null>(`${API}/auth/forget`, { ...body, terminal: 'web', domain: domain() }),
  openSysConfig: () => get<OpenSysConfig>(`${API}/open/sys/config`, undefined, { silent: true }),
  emailCode: (email: string, action: EmailCodeAction, channel: Channel) =>
    post<null>(`${API}/common/email-code`, { email, action, channel, domain: domain() }),
  smsCode: (phone: string, action: SmsCodeAction, channel: Channel) =>
    post<null>(`${API}/common/sms-code`, { phone, action, channel, domain: domain() }),
};
