// Parse a payload with a core schema; a failure names the field in the caller's locale.
import { ErrorCode, type Locale } from '@fastgate/core/constants';
import { isMessageKey, t } from '@fastgate/core/messages';
import { z } from 'zod';
import { isStorable } from '../db/text';
import { AppError } from './errors';

const zodLocales = { 'zh-CN': z.locales.zhCN().localeError, 'en-US': z.locales.en().localeError };

/** The path of the first string in `value` no column can store as written, or undefined. */
function unstorableAt(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return isStorable(value) ? undefined : path;
  if (!value || typeof value !== 'object') return undefined;
  for (const [k, v] of Object.entries(value)) {
    const found = unstorableAt(v, path ? `${path}.${k}` : k);
    if (found !== undefined) return found;
  }
  return undefined;
}

export function parse<S extends z.ZodType>(schema: S, input: unknown, locale: Locale): z.infer<S> {
  const result = schema.safeParse(input ?? {}, { error: zodLocales[locale] });
  if (result.success) {
    const unstorable = unstorableAt(result.data, '');
    if (unstorable !== undefined) throw new AppError(ErrorCode.Validation, 'common.invalid_field', { field: unstorable || 'body', detail: t('common.bad_text', locale) });
    return result.data;
  }
  const issue = result.error.issues[0]!;
  const field = issue.path.length ? issue.path.join('.') : 'body';
  const detail = isMessageKey(issue.message) ? t(issue.message, locale) : issue.message;
  throw new AppError(ErrorCode.Validation, 'common.invalid_field', { field, detail });
}
