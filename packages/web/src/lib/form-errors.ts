// How a form shows what went wrong: a server field error (code 51 "参数 {field} 不正确: {detail}") is read
// back into its field and detail so the form item carries it under its own label, and the first error
// scrolls into view below the fixed navbar.
import { LOCALES } from '@fastgate/core/constants';
import { t } from '@fastgate/core/messages';

export interface FieldError {
  /** The API field, dotted for nested ones ("preset_config.min_tokens"). */
  field: string;
  detail: string;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The server's template in each locale, with its placeholders as capture groups. */
const patterns = LOCALES.map((locale) => {
  const [before, between, after] = t('common.invalid_field', locale, { field: '\0', detail: '\0' }).split('\0') as [string, string, string];
  return new RegExp(`^${escape(before)}([\\w.]+)${escape(between)}([\\s\\S]*)${escape(after)}$`);
});

/** The field and detail of a server "invalid field" message, in either language. */
export function fieldErrorOf(message: string): FieldError | undefined {
  for (const pattern of patterns) {
    const match = pattern.exec(message);
    if (match) return { field: match[1]!, detail: match[2]! };
  }
  return undefined;
}

interface ScrollAction {
  el: Element;
  top: number;
  left: number;
}

/**
 * A scroll behaviour for Arco's `scrollToFirstError` / `scrollToField` (scroll-into-view-if-needed):
 * scroll the page so the item sits `offset` px lower, clear of a fixed header.
 */
export function scrollBelow(offset: number) {
  return (actions: ScrollAction[]) => {
    for (const { el, top, left } of actions) {
      const y = el === document.scrollingElement || el === document.documentElement ? top - offset : top;
      el.scrollTo({ top: Math.max(0, y), left, behavior: 'smooth' });
    }
  };
}
