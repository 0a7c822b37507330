// Why a screen that shows or edits one record (`?id=`) has nothing to show: no id in its URL, or the server
// does not know the id (or the caller may not see it). One rule for forms and detail screens alike.
export type RecordProblem = 'missingId' | 'loadFailed';

interface DetailState {
  isError: boolean;
  isSuccess: boolean;
  data: unknown;
}

/** The problem of a record screen, or undefined while it loads or once it has its record. */
export function recordProblem(id: string | null | undefined, detail: DetailState): RecordProblem | undefined {
  if (!id) return 'missingId';
  // An answer without a record is as unknown as a refused one.
  if (detail.isError || (detail.isSuccess && detail.data == null)) return 'loadFailed';
  return undefined;
}
