// Lazy entry points of the call-log screens (`log.<kind>`), registered in shell/pages.ts; all six kinds
// share one chunk.
import type { ComponentType } from 'react';
import { LOG_KINDS, type LogKind } from '@fastgate/core/entities/call-log';

type Loader = () => Promise<{ default: ComponentType }>;

// fromEntries types its keys as string; they are exactly `log.<kind>` for every kind.
export const logPages = Object.fromEntries(LOG_KINDS.map((kind) => [`log.${kind}`, () => import('./list').then((m) => ({ default: m.LOG_LISTS[kind] }))])) as Record<`log.${LogKind}`, Loader>;
