// Parse a payload with a core schema; a failure names the field in the caller's locale.
import { ErrorCode, type Locale } from '@fastgate/core/constants';
import { isMessageKey, t } from '@fastgate/core/messages';
import { z } from 'zod';
import { AppError } from './errors';

const zodLocales = { 'zh-CN': z.locales.zhCN().localeError, 'en-US': z.locales.en().localeError };

export function parse<S extends z.ZodType>(schema: S, input: unknown, locale: Locale): z.infer<S> {
  const result = schema.safeParse(input ?? {}, { error: zodLocales[locale] });
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.length ? issue.path.join('.') : 'body';
  const detail = isMessageKey(issue.message) ? t(issue.message, locale) : issue.message;
  throw new AppError(ErrorCode.Validation, 'common.invalid_field', { field, detail });
}
