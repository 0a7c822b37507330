// The system config's `debug` switch (docs/SPEC.md §3.15.4): while on, the server logs at debug level;
// off, at LOG_LEVEL again. Every instance follows the switch through the bus. Request loggers are
// children made per request, so they take the level in force when the request comes in.
import type { Ctx } from '../context';
import { getSysSection } from './sys-config';

export async function followDebugLog(ctx: Ctx): Promise<() => void> {
  const apply = async () => {
    const { open } = await getSysSection(ctx.db, 'debug');
    const level = open ? 'debug' : ctx.config.logLevel;
    if (ctx.log.level !== level) {
      ctx.log.level = level;
      ctx.log.info({ level }, 'log level set by the system config debug switch');
    }
  };
  await apply();
  return ctx.bus.subscribe((e) => {
    if (e.entity === 'sys_configs' && (!e.ids.length || e.ids.includes('debug'))) apply().catch((err: unknown) => ctx.log.error({ err }, 'applying the debug switch failed'));
  });
}
