// The console API's envelope {code, message, data} and its error handler (docs/ORIGINAL-API.md §2.2).
import { ErrorCode } from '@fastgate/core/constants';
import { t } from '@fastgate/core/messages';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './errors';
import { JsonTooDeepError, MAX_JSON_DEPTH } from './json-body';
import { requestLocale } from './locale';

export function ok<T>(data: T = null as T) {
  return { code: ErrorCode.OK, message: 'success', data };
}

function render(reply: FastifyReply, request: FastifyRequest, error: AppError) {
  const message = t(error.key, requestLocale(request), error.vars);
  return reply.status(error.httpStatus).send({ code: error.code, message, data: null });
}

/** Fastify's own errors (body parsing, size) become envelope errors; anything unexpected is logged, never shown. */
export function envelopeErrorHandler(this: FastifyInstance, error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) return render(reply, request, error);
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return render(reply, request, new AppError(ErrorCode.Validation, 'common.body_too_large', {}, 413));
  if (error instanceof JsonTooDeepError) return render(reply, request, new AppError(ErrorCode.Validation, 'common.json_too_deep', { max: MAX_JSON_DEPTH }, 400));
  if (error.code?.startsWith('FST_ERR_CTP') || (error.statusCode === 400 && error instanceof SyntaxError)) {
    return render(reply, request, new AppError(ErrorCode.Validation, 'common.bad_json', {}, 400));
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return render(reply, request, new AppError(ErrorCode.Validation, 'common.bad_json', {}, error.statusCode));
  }
  request.log.error({ err: error }, 'unhandled console error');
  return render(reply, request, new AppError(ErrorCode.Business, 'common.unknown', {}, 500));
}

export function envelopeNotFound(request: FastifyRequest, reply: FastifyReply) {
  return render(reply, request, new AppError(ErrorCode.NotFound, 'common.not_found', {}, 404));
}
