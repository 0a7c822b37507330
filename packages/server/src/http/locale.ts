import { DEFAULT_LOCALE, type Locale } from '@fastgate/core/constants';
import type { FastifyRequest } from 'fastify';

/** The caller's locale: en-US when it asks for English first, else the primary zh-CN. */
export function requestLocale(request: FastifyRequest): Locale {
  const lang = String(request.headers['accept-language'] ?? '').trim().toLowerCase();
  return lang.startsWith('en') ? 'en-US' : DEFAULT_LOCALE;
}
