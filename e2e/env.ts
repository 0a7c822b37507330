// Overridable so two runs (or a run beside a developer's server) need not share ports.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 8181);
export const E2E_MAIL_PORT = Number(process.env.E2E_MAIL_PORT ?? E2E_PORT + 1);
/** The mock provider the e2e server starts beside itself. */
export const E2E_MOCK_PORT = Number(process.env.E2E_MOCK_PORT ?? E2E_PORT + 2);
export const E2E_MOCK_URL = `http://127.0.0.1:${E2E_MOCK_PORT}`;
export const E2E_ADMIN_PASSWORD = 'Admin#e2e123';
export const BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
