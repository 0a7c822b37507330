// Lua scripts run by hash: EVALSHA, loading the script with EVAL the first time a server has not seen
// it (or after a SCRIPT FLUSH). Shared by the Redis limiter and the Redis ledger store.
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

export interface Script {
  lua: string;
  sha: string;
}

export const script = (lua: string): Script => ({ lua, sha: createHash('sha1').update(lua).digest('hex') });

export async function runScript(redis: Redis, s: Script, keys: string[], args: (string | number)[]): Promise<unknown> {
  try {
    return await redis.evalsha(s.sha, keys.length, ...keys, ...args);
  } catch (err) {
    if (!(err instanceof Error) || !err.message.includes('NOSCRIPT')) throw err;
    return redis.eval(s.lua, keys.length, ...keys, ...args);
  }
}
