// URL roots, kept apart from http.ts so modules that build URLs at load time never meet the import
// cycle http.ts → app/session.ts → api/*.ts.
export const API = '/api/v1';
export const USER_INFO_URL = `${API}/user/info`;
