// Lazy entry points of the call-log screens (`log.<kind>`), registered in app/pages.ts; all six kinds
// share one chunk.
import { LOG_KINDS } from '@fastgate/core/entities/call-log';

export const logPages = Object.fromEntries(LOG_KINDS.map((kind) => [`log.${kind}`, () => import('./list').then((m) => ({ default: m.LOG_LISTS[kind] }))]));
