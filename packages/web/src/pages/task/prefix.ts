import { taskPath, type TaskKind } from '@fastgate/core/entities/task';

/** The resource prefix of a kind (`/task/video`), derived from the core path so the two cannot drift. */
export const taskPrefix = (kind: TaskKind) => taskPath(kind, 'page').replace(/\/page$/, '');
