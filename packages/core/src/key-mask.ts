// Keys as lists show them, the original's way (docs/ORIGINAL-API.md §1.6): the first 10 and last 5
// characters kept, every other one a `*`, so the mask is as long as the key.

/** `sk-FastAPI************…abcde`; a key too short for 10 + 5 keeps half as much at each end, and so on. */
export function maskKey(key: string, keepStart = 10, keepEnd = 5): string {
  if (key.length < 2) return key;
  if (key.length <= keepStart + keepEnd) return maskKey(key, Math.floor(keepStart / 2), Math.floor(keepEnd / 2));
  return key.slice(0, keepStart) + '*'.repeat(key.length - keepStart - keepEnd) + key.slice(key.length - keepEnd);
}

/** Whether `text` is a mask as sent back by a client that read it (it has a `*` and masks to itself). */
export const isMaskedKey = (text: string): boolean => text.includes('*') && maskKey(text) === text;
