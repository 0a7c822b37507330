// URL roots, kept apart from http.ts so that modules which only build URLs do not load the HTTP client.
export const API = '/api/v1';
export const USER_INFO_URL = `${API}/user/info`;
