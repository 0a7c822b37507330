// Export downloads (docs/ORIGINAL-API.md §2.9, §5.11): the file arrives as a Blob under a fixed Chinese name. A
// failed export also arrives as a Blob (the JSON envelope), which the HTTP client cannot toast.
import { Message } from '@arco-design/web-react';
import type { Envelope } from '@fastgate/core/api';
import { TOAST_MS } from '@fastgate/core/constants';

/** Saves `blob` as `filename`; a JSON envelope is shown as the error it is and rejected. */
export async function saveBlob(blob: Blob, filename: string): Promise<void> {
  if (blob.type.includes('json')) {
    const body = JSON.parse(await blob.text()) as Partial<Envelope>;
    const message = body.message || 'Export failed';
    Message.error({ content: message, duration: TOAST_MS });
    throw new Error(message);
  }
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Give the browser a moment to start the download before the URL goes away.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
