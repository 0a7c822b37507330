// Lazy entry points of the task screens (`task.<kind>`), registered in app/pages.ts; the three kinds
// share one chunk.
import { TASK_KINDS } from '@fastgate/core/entities/task';

export const taskPages = Object.fromEntries(TASK_KINDS.map((kind) => [`task.${kind}`, () => import('./list').then((m) => ({ default: m.TASK_LISTS[kind] }))]));
