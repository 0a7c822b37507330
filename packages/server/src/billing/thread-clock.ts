// A clock the SQLite writer thread and the main thread share (billing/sqlite-writer.ts): each thread's
// performance.now() counts from its own start, so their readings compare only with the origin added.

/** Milliseconds since the epoch, sub-millisecond, comparable across threads. */
export const epochNow = () => performance.timeOrigin + performance.now();
