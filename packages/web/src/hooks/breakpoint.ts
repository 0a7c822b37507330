// The window's breakpoint (lib/layout.ts), following resizes and rotations: the one place components ask whether
// they are on a phone or a tablet.
import { useSyncExternalStore } from 'react';
import { PHONE_QUERY, TABLET_QUERY, type Breakpoint } from '../lib/layout';

const queries = [PHONE_QUERY, TABLET_QUERY];

function subscribe(onChange: () => void): () => void {
  const lists = queries.map((q) => window.matchMedia(q));
  lists.forEach((l) => l.addEventListener('change', onChange));
  return () => lists.forEach((l) => l.removeEventListener('change', onChange));
}

function current(): Breakpoint {
  if (window.matchMedia(PHONE_QUERY).matches) return 'phone';
  return window.matchMedia(TABLET_QUERY).matches ? 'tablet' : 'desktop';
}

export function useBreakpoint(): Breakpoint {
  return useSyncExternalStore(subscribe, current);
}

export const useIsPhone = () => useBreakpoint() === 'phone';

/**
 * A form's layout: label beside input on desktops; on phones and tablets label over input, since a label column
 * of a narrow form breaks longer labels inside a word (注册赠送额度 over two lines).
 */
export function useFormLayout(): 'vertical' | 'horizontal' {
  return useBreakpoint() === 'desktop' ? 'horizontal' : 'vertical';
}
