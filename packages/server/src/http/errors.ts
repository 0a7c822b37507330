// Typed errors, rendered by each scope's error handler (console: envelope; gateway: OpenAI shape).
import { ErrorCode } from '@fastgate/core/constants';
import type { MessageKey } from '@fastgate/core/messages';

export class AppError extends Error {
  constructor(
    readonly code: number,
    readonly key: MessageKey,
    readonly vars: Record<string, string | number> = {},
    /** Business errors are HTTP 200 (docs/ORIGINAL-API.md §2.2); auth failures 401. */
    readonly httpStatus = 200,
  ) {
    super(key);
  }
}

export const businessError = (key: MessageKey, vars?: Record<string, string | number>) => new AppError(ErrorCode.Business, key, vars);
export const unauthorized = () => new AppError(ErrorCode.Unauthorized, 'auth.unauthorized', {}, 401);
export const notFound = () => new AppError(ErrorCode.Business, 'common.record_not_found');
/** A validation error naming the field (docs/ORIGINAL-API.md §2.2 code 51), like a schema failure. */
export const invalidField = (field: string, detail: string) => new AppError(ErrorCode.Validation, 'common.invalid_field', { field, detail });
