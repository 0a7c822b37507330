// Runs the mock upstream on its own: `npm start -w @fastgate/mock-provider` (PORT, default 8300).
import { startMockProvider } from './server';

const port = Number(process.argv[2] ?? 8300);
const mock = await startMockProvider({ port, host: '127.0.0.1', record: 0 });
console.log(`mock provider at ${mock.url}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void mock.close().then(() => process.exit(0)));
