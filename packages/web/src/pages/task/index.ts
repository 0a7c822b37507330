// Lazy entry points of the task screens (`task.<kind>`), registered in shell/pages.ts; the three kinds
// share one chunk.
import type { ComponentType } from 'react';
import { TASK_KINDS, type TaskKind } from '@fastgate/core/entities/task';

type Loader = () => Promise<{ default: ComponentType }>;

// fromEntries types its keys as string; they are exactly `task.<kind>` for every kind.
export const taskPages = Object.fromEntries(TASK_KINDS.map((kind) => [`task.${kind}`, () => import('./list').then((m) => ({ default: m.TASK_LISTS[kind] }))])) as Record<`task.${TaskKind}`, Loader>;
