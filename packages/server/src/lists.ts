// Lists a hot path fills and empties call after call. A Set emptied and filled again reallocates its
// table every few turns, and a table left on an idle connection lived long enough to be copied into the
// old generation (docs/BENCHMARKS.md, twenty-fourth session); an array keeps its storage. Removal is a
// scan: for lists of a few items (the calls open on one connection), not for backlogs.

/** Takes one `item` out of `list`, the last element moved into its place (order is not kept). */
export function removeFrom<T>(list: T[], item: T): void {
  const i = list.indexOf(item);
  if (i < 0) return;
  list[i] = list[list.length - 1]!;
  list.pop();
}
