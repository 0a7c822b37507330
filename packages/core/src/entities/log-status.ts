// A call log's status, on its own: the SQLite writer thread's statistics read it without loading the
// call log's schemas (and zod with them).

/** docs/SPEC.md §4.3 call status; -100 as a filter = anything but success. */
export const LogStatus = { Success: 1, Aborted: 2, Retry: 3, Failed: -1, Abnormal: -100 } as const;
