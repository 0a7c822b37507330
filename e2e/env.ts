export const E2E_PORT = 8181;
export const E2E_MAIL_PORT = 8182;
export const E2E_ADMIN_PASSWORD = 'Admin#e2e123';
export const BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
