// @ts-check
// `npm run demo`: the product on :8080 (PORT to change), preconfigured against the mock provider so a
// newcomer can make a call in one minute: a corp, the model "gpt-demo" behind a model agent pointing at
// the mock, a demo user with quota and an app key. Demo only: fixed, printed passwords and a fresh
// throw-away database (a temp folder, removed on exit). Ctrl-C stops everything.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as h from '../bench/harness.mjs';

const PORT = Number(process.env.PORT ?? 8080);
const MODEL = 'gpt-demo';
const ADMIN_PASSWORD = 'Demo#12345';
const USER = 'demo@example.com';
const USER_PASSWORD = 'Demo#12345';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fg-demo-'));
let stopping = false;
async function stop(/** @type {number} */ code) {
  if (stopping) return;
  stopping = true;
  await h.stopAll();
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(code);
}
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.once(signal, () => {
    console.log('\nStopping the demo…');
    void stop(0);
  });
}

try {
  if (await h.portInUse(PORT)) throw new Error(`port ${PORT} is taken; stop what runs there or pick another: PORT=8081 npm run demo`);
  h.ensureConsole();
  await h.ensureBundle();
  console.log('Starting the mock provider and the product…');
  const mock = await h.startMock(await h.freePort());
  // Localhost only unless HOST says otherwise: the demo's passwords are printed below and in this file.
  const base = { port: PORT, host: process.env.HOST || '127.0.0.1', dataDir, adminPassword: ADMIN_PASSWORD, webDist: h.at('packages/web/dist') };
  // Info level while configuring: the demo user's e-mail code is read from the log (no mail server).
  let product = await h.startProduct({ ...base, logLevel: 'info' });
  const { appKey } = await h.configure(product, { mockUrl: mock.url, adminPassword: ADMIN_PASSWORD, model: MODEL, userEmail: USER, userPassword: USER_PASSWORD, quota: 100_000_000 });
  // Configured: again at the quiet log level the demo runs at.
  await product.proc.stop();
  product = await h.startProduct({ ...base, logLevel: 'warn' });
  await h.smokeChat(product.url, appKey, MODEL);

  const url = `http://localhost:${PORT}`;
  console.log(`
FastGate demo is running (mock upstream at ${mock.url}; data in ${dataDir}, removed on exit).

  Console        ${url}/login        (demo user: ${USER} / ${USER_PASSWORD})
  Admin console  ${url}/admin        (admin / ${ADMIN_PASSWORD})
  App key        ${appKey}
  Model          ${MODEL}

Try a call:

  curl ${url}/v1/chat/completions \\
    -H "Authorization: Bearer ${appKey}" \\
    -H "Content-Type: application/json" \\
    -d '{"model":"${MODEL}","messages":[{"role":"user","content":"Hello!"}]}'

Or with the openai SDK (npm i openai; save as try.mjs, run node try.mjs):

  import OpenAI from 'openai';
  const client = new OpenAI({ baseURL: '${url}/v1', apiKey: '${appKey}' });
  const reply = await client.chat.completions.create({ model: '${MODEL}', messages: [{ role: 'user', content: 'Hello!' }] });
  console.log(reply.choices[0].message.content);

Ctrl-C stops the demo.`);

  // Either child dying ends the demo rather than leaving a half-working one.
  const died = await Promise.race([mock.proc.exited.then(() => 'mock provider'), product.proc.exited.then(() => 'product')]);
  if (!stopping) {
    console.error(`The ${died} stopped unexpectedly:\n${(died === 'product' ? product : mock).proc.lines.slice(-20).join('\n')}`);
    await stop(1);
  }
} catch (err) {
  console.error('demo failed:', err instanceof Error ? err.message : err);
  await stop(1);
}
