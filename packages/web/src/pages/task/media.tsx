// Task results are URLs that come from the provider: only http(s) ones become links, players or images
// (a `javascript:` or `data:` URL is shown as text, never followed).
import { Image, Link, Typography } from '@arco-design/web-react';
import { httpUrl } from './safe-url';

/** A link that opens in a new tab (no opener), or the raw text when it is not a web URL. */
export function MediaLink({ url, label, testId }: { url: string; label: string; testId?: string }) {
  if (!url) return <span>-</span>;
  const href = httpUrl(url);
  if (!href) return <Typography.Text type="secondary">{url}</Typography.Text>;
  return (
    <Link href={href} target="_blank" rel="noopener noreferrer" data-testid={testId}>
      {label}
    </Link>
  );
}

export function Cover({ url, size = 48, testId }: { url: string; size?: number; testId?: string }) {
  const src = httpUrl(url);
  if (!src) return <span>-</span>;
  return <Image src={src} width={size} height={size} style={{ objectFit: 'cover', borderRadius: 4 }} preview data-testid={testId} />;
}
