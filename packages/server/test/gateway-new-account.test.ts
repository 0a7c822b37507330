// A self-registered account calls the gateway right away: registration must reach the gateway's
// snapshot like every other write (it once did not, and the first call of a new user was refused with
// "The owner of this API key no longer exists" until the server restarted).
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { Client, dialects } from './helpers';
import { settled, world } from './gateway-fixtures';

/** The code the server logged in place of the mail it could not send (no mail server in tests). */
async function loggedCode(logs: string[], email: string): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const code = logs.filter((l) => l.includes('mail not sent') && l.includes(email)).map((l) => /mail not sent:.*?\b(\d{6})\b/.exec(l)?.[1]).find(Boolean);
    if (code) return code;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no code logged for ${email}`);
}

describe.each(dialects)('a self-registered account on %s', (dialect) => {
  it('is known to the gateway at once: judged by its balance, then served after a recharge', async () => {
    const w = await world(dialect);
    try {
      const email = `fresh-${Math.random().toString(36).slice(2, 8)}@example.com`;
      const anon = new Client(w.server.url);
      expect((await anon.post('/api/v1/common/email-code', { email, action: 'register', channel: 'user' })).body.code).toBe(0);
      const reg = await anon.post('/api/v1/auth/register', { account: email, password: 'Passw0rd!', code: await loggedCode(w.server.logs, email), channel: 'user' });
      expect(reg.body.code).toBe(0);
      anon.token = reg.body.data.token;
      const app = await anon.post('/api/v1/app/create', { name: 'first app', is_create_key: true });
      expect(app.body.code).toBe(0);
      await settled(w);
      const openai = new OpenAI({ apiKey: app.body.data.key, baseURL: `${w.server.url}/v1`, maxRetries: 0 });
      const ask = () => openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'first call' }] });
      // No balance yet: refused for quota, as an account the gateway knows (not 401 "no longer exists").
      await expect(ask()).rejects.toMatchObject({ status: 429, code: 'insufficient_quota' });
      const userId = (await w.server.app.ctx.db.selectFrom('users').select('user_id').where('email', '=', email).executeTakeFirstOrThrow()).user_id;
      expect((await w.admin.post('/api/v1/admin/user/recharge', { user_id: userId, quota: 1_000_000 })).body.code).toBe(0);
      await settled(w);
      expect((await ask()).choices[0]!.message.content).toContain('first call');
    } finally {
      await w.close();
    }
  });
});
