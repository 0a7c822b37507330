// A secret shown masked (lists never carry the full key) with an optional copy button that fetches it.
import { Space, Typography } from '@arco-design/web-react';
import { CopyButton } from './CopyButton';

/** `sk-FastAPIab…wxyz`: keeps a recognisable head and tail. Values the server masked already pass through. */
function maskKey(key: string, head = 8, tail = 4): string {
  if (key.includes('*') || key.length <= head + tail) return key;
  return `${key.slice(0, head)}${'*'.repeat(6)}${key.slice(-tail)}`;
}

export interface MaskedKeyProps {
  value: string | null | undefined;
  /** Fetches the full key for the clipboard; no copy button without it. */
  copy?: () => Promise<string>;
  testId?: string;
}

export function MaskedKey({ value, copy, testId }: MaskedKeyProps) {
  if (!value) return <span>-</span>;
  return (
    <Space size={4} data-testid={testId}>
      {/* A masked key keeps its length (up to ~50 characters): it wraps rather than run under the next column. */}
      <Typography.Text code style={{ wordBreak: 'break-all' }}>
        {maskKey(value)}
      </Typography.Text>
      {copy && <CopyButton fetch={copy} />}
    </Space>
  );
}
