// Sign-in, registration and verification codes (reference §4, §1.9).
import type { Channel, EmailCodeAction, SmsCodeAction } from '@fastgate/core/constants';
import type { LoginResult, OpenSysConfig } from '@fastgate/core/schemas/auth';
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
  login: (body: LoginBody) => post<LoginResult>(`${API}/auth/login`, { ...body, terminal: 'web', domain: domain() }),
  logout: () => post<null>(`${API}/auth/logout`, {}, { silent: true }),
  register: (body: AccountBody) => post<null>(`${API}/auth/register`, { ...body, terminal: 'web', domain: domain() }),
  forget: (body: AccountBody) => post<null>(`${API}/auth/forget`, { ...body, terminal: 'web', domain: domain() }),
  openSysConfig: () => get<OpenSysConfig>(`${API}/open/sys/config`, undefined, { silent: true }),
  emailCode: (email: string, action: EmailCodeAction, channel: Channel) =>
    post<null>(`${API}/common/email-code`, { email, action, channel, domain: domain() }),
  smsCode: (phone: string, action: SmsCodeAction, channel: Channel) =>
    post<null>(`${API}/common/sms-code`, { phone, action, channel, domain: domain() }),
};
