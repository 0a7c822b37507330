// The app-key calls beyond the shared `/key` verbs (docs/ORIGINAL-API.md §3.3, §2.8, §2.9): generate + config (the
// two-step create), batch operate, the copy reveal and the xlsx export.
import { APP_KEY_PATHS, type AppKey, type AppKeySettings } from '@fastgate/core/entities/app-key';
import { KEY_PREFIX, KeyType } from '@fastgate/core/entities/provider-key';
import { get, post, postBlob } from '../../../api/http';
import { API } from '../../../api/paths';

/** Settings as the form sends them: IP lists as newline text (the server splits them). */
export type KeySettingsBody = Omit<AppKeySettings, 'ip_whitelist' | 'ip_blacklist'> & { ip_whitelist?: string; ip_blacklist?: string };

export const appKeyApi = {
  /** Step 1: a fresh key for the app; nothing is stored yet. */
  generate: (app_id: number) => post<{ app_id: number; key: string }>(`${API}${APP_KEY_PATHS.generate}`, { app_id }),
  /** Step 2 without `id`: stores `key` with its settings. */
  store: (app_id: number, key: string, settings: KeySettingsBody) => post<{ key: string }>(`${API}${APP_KEY_PATHS.config}`, { ...settings, app_id, key }),
  /** With `id`: changes a key's settings (the key and its app never change). */
  configure: (id: string, settings: KeySettingsBody) => post<null>(`${API}${APP_KEY_PATHS.config}`, { ...settings, id }),
  /** `n` new keys with the same settings; answers them newline-separated. */
  batchCreate: (app_id: number, n: number, settings: KeySettingsBody) =>
    post<{ keys: string }>(`${API}${APP_KEY_PATHS.batch}`, { ...settings, action: 'create', app_id, n }),
  batch: (body: { action: 'status' | 'delete'; ids: string[]; value?: number }) => post<unknown>(`${API}${APP_KEY_PATHS.batch}`, body),
  detail: (id: string) => get<AppKey>(`${API}${KEY_PREFIX}/detail`, { id, type: KeyType.App }),
  /** The copy button's explicit reveal: list rows only carry the mask. */
  copy: async (id: string) => (await post<{ value: string }>(`${API}${KEY_PREFIX}/copy/field`, { id, type: KeyType.App, field: 'key' })).value,
  export: (body: { ids?: string[]; app_id?: number; user_id?: number }) => postBlob(`${API}${APP_KEY_PATHS.export}`, body),
};
