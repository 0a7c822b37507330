// The one axios instance and the interceptors of docs/SPEC.md §8 / docs/ORIGINAL-API.md §5. The client sits below the session:
// what it needs from it (logout, reloading the user, the step-up modal) the shell registers at start.
import axios, { type AxiosError, type AxiosRequestConfig, type InternalAxiosRequestConfig } from 'axios';
import { Message, Modal } from '@arco-design/web-react';
import type { Envelope } from '@fastgate/core/api';
import { ErrorCode, LICENSE_REDIRECT_MS, SESSION_TIMEOUT_CODES, TOAST_MS } from '@fastgate/core/constants';
import { USER_CENTER } from '@fastgate/core/routes';
import { STORAGE } from '../lib/settings';
import { fieldErrorOf } from '../lib/form-errors';
import { loginPath, navigateTo, routePath } from '../lib/navigation';
import { currentLocale, i18n } from '../locale';
import { useUserStore } from '../stores/user';
import { USER_INFO_URL } from './paths';

declare module 'axios' {
  interface AxiosRequestConfig {
    /** No toast, modal or redirect: the caller handles failure (the guard's `/user/info`, logout). */
    silent?: boolean;
    /** Sent again after a step-up (code 71): a second refusal is not asked again. */
    steppedUp?: boolean;
    /** A form shows a field error (code 51 naming a field) under the field's label: no toast with the API name. */
    formFieldErrors?: boolean;
  }
}

/** What the client asks of the session; registered once by the shell before the first request. */
export interface SessionHooks {
  /** Ends the session locally (and on the server when it still can). */
  logout: () => Promise<void>;
  /** Reloads the signed-in user's info without toasts (code 70 changes what the guards allow). */
  reloadUser: () => Promise<unknown>;
  /** Code 71: asks for a fresh authenticator code; true once the session has stepped up. */
  askStepUp: () => Promise<boolean>;
}

let session: SessionHooks | null = null;

export function registerSessionHooks(hooks: SessionHooks): void {
  session = hooks;
}

function sessionHooks(): SessionHooks {
  if (!session) throw new Error('the HTTP client was used before the shell registered its session hooks');
  return session;
}

export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const http = axios.create({
  baseURL: '',
  // The server sets the XSRF-TOKEN cookie and checks the header on POSTs.
  withXSRFToken: true,
  xsrfCookieName: 'XSRF-TOKEN',
  xsrfHeaderName: 'X-XSRF-TOKEN',
});

http.interceptors.request.use((config: InternalAxiosRequestConfig) => {
  const token = localStorage.getItem(STORAGE.token);
  if (token) config.headers.set('Authorization', `Bearer ${token}`);
  config.headers.set('Accept-Language', currentLocale());
  return config;
});

const toast = (content: string) => Message.error({ content, duration: TOAST_MS });

let sessionModalOpen = false;
/** One modal however many calls fail at once. OK logs out, then goes to the role's login or reloads. */
function showSessionTimeout(): void {
  if (sessionModalOpen) return;
  sessionModalOpen = true;
  const role = useUserStore.getState().role;
  Modal.error({
    title: i18n.t('http.sessionTimeout.title'),
    content: i18n.t('http.sessionTimeout.content'),
    okText: i18n.t('http.sessionTimeout.ok'),
    closable: false,
    maskClosable: false,
    escToExit: false,
    okButtonProps: { 'data-testid': 'session-timeout-ok' } as Record<string, string>,
    onOk: async () => {
      await sessionHooks().logout();
      sessionModalOpen = false;
      if (role === 'reseller' || role === 'admin') navigateTo(loginPath(role));
      else window.location.reload();
    },
  });
}

let setupModalOpen = false;
/** Code 70: the role must use two-factor sign-in and this account has not set it up: to the security tab. */
function showTwoFactorSetup(message: string): void {
  if (setupModalOpen) return;
  setupModalOpen = true;
  void sessionHooks().reloadUser().catch(() => undefined);
  navigateTo(`${routePath(USER_CENTER)}?tab=security`);
  Modal.warning({
    title: i18n.t('http.twoFactorSetup.title'),
    content: message,
    okText: i18n.t('http.twoFactorSetup.ok'),
    onOk: () => {
      setupModalOpen = false;
    },
    onCancel: () => {
      setupModalOpen = false;
    },
  });
}

function onEnvelopeError(body: Envelope, config: AxiosRequestConfig): void {
  if (config.silent) return;
  if (body.code === ErrorCode.TwoFactorSetup) return showTwoFactorSetup(body.message);
  if (config.formFieldErrors && body.code === ErrorCode.Validation && fieldErrorOf(body.message)) return;
  toast(body.message || i18n.t('http.unknownError'));
  if (SESSION_TIMEOUT_CODES.includes(body.code)) showSessionTimeout();
  if (body.code === ErrorCode.License && useUserStore.getState().role === 'admin') {
    setTimeout(() => navigateTo(routePath('sys.license.info')), LICENSE_REDIRECT_MS);
  }
}

function isEnvelope(value: unknown): value is Envelope {
  return typeof value === 'object' && value !== null && typeof (value as Envelope).code === 'number';
}

/** The envelope of an error answered to a Blob request (exports), else undefined. */
async function blobEnvelope(data: Blob): Promise<Envelope | undefined> {
  if (!data.type.includes('json')) return undefined;
  try {
    const body = JSON.parse(await data.text()) as unknown;
    return isEnvelope(body) ? body : undefined;
  } catch {
    return undefined;
  }
}

http.interceptors.response.use(
  async (response) => {
    // Code 71: ask a fresh code once, then send the same request again (exports' Blob answers too).
    const step = response.data instanceof Blob ? await blobEnvelope(response.data) : (response.data as unknown);
    if (isEnvelope(step) && step.code === ErrorCode.StepUp && !response.config.silent && !response.config.steppedUp) {
      if (await sessionHooks().askStepUp()) return http.request({ ...response.config, steppedUp: true });
    }
    if (response.data instanceof Blob) return response;
    const body = response.data as unknown;
    if (isEnvelope(body) && body.code !== ErrorCode.OK) {
      onEnvelopeError(body, response.config);
      return Promise.reject(new ApiError(body.code, body.message || 'Unknown Error', response.status));
    }
    return response;
  },
  (error: AxiosError) => {
    const config: AxiosRequestConfig = error.config ?? {};
    const status = error.response?.status;
    const body = error.response?.data;
    const envelope = isEnvelope(body) ? body : undefined;
    if (axios.isCancel(error) || config.silent) return Promise.reject(error);
    if (status === 401 || status === 403) {
      if (config.url?.startsWith(USER_INFO_URL)) {
        const role = useUserStore.getState().role;
        void sessionHooks().logout().then(() => navigateTo(loginPath(role)));
      } else {
        toast(i18n.t('http.sessionTimeout.toast'));
        // The server answers an expired or revoked session with HTTP 401 and `{code: 401}`.
        if (SESSION_TIMEOUT_CODES.includes(envelope?.code ?? status)) showSessionTimeout();
      }
    } else {
      toast(envelope?.message || error.message || i18n.t('http.requestError'));
    }
    return Promise.reject(envelope ? new ApiError(envelope.code, envelope.message, status) : error);
  },
);

export async function get<T>(url: string, params?: object, config?: AxiosRequestConfig): Promise<T> {
  const res = await http.get<Envelope<T>>(url, { ...config, params });
  return res.data.data;
}

export async function post<T>(url: string, body?: object, config?: AxiosRequestConfig): Promise<T> {
  const res = await http.post<Envelope<T>>(url, body ?? {}, config);
  return res.data.data;
}

/** POST answered with a file (exports); error envelopes still arrive as a Blob and pass through. */
export async function postBlob(url: string, body?: object): Promise<Blob> {
  const res = await http.post<Blob>(url, body ?? {}, { responseType: 'blob' });
  return res.data;
}
