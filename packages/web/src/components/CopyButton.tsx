// Copy a secret (docs/ORIGINAL-API.md §5.10): list rows are masked, so the full value is fetched on click
// (`copy/field`, `detail`, …) through the given function and only then put on the clipboard.
import { useState, type ReactNode } from 'react';
import { Button, Message, Tooltip, type ButtonProps } from '@arco-design/web-react';
import { IconCopy } from '@arco-design/web-react/icon';
import { useGlobalLocale } from '../locale';
import { copyText } from './clipboard';

export interface CopyButtonProps extends Omit<ButtonProps, 'onClick' | 'loading'> {
  /** Returns the text to copy; a plain string may be given for values already on screen. */
  fetch: (() => Promise<string>) | string;
  /** Button text; icon-only (with a tooltip) when omitted. */
  children?: ReactNode;
}

export function CopyButton({ fetch, children, size = 'mini', type = 'text', ...rest }: CopyButtonProps) {
  const { g } = useGlobalLocale();
  const [busy, setBusy] = useState(false);

  const copy = async () => {
    setBusy(true);
    let text: string;
    try {
      text = typeof fetch === 'string' ? fetch : await fetch();
    } catch {
      // The HTTP client already showed why the fetch failed.
      setBusy(false);
      return;
    }
    try {
      await copyText(text);
      Message.success(g('common.copy.success'));
    } catch {
      Message.error(g('common.copy.failed'));
    } finally {
      setBusy(false);
    }
  };

  const button = (
    <Button {...rest} size={size} type={type} icon={<IconCopy />} loading={busy} onClick={() => void copy()} aria-label={g('common.copy')}>
      {children}
    </Button>
  );
  return children ? button : <Tooltip content={g('common.copy')}>{button}</Tooltip>;
}
