// Rate limits (docs/SPEC.md §3.13 rps…ipd; docs/ORIGINAL-GATEWAY.md §3, §7.7): memory for one process, Redis for many.
export type { LimitScope, RateLimiter } from './types';
export { retryAfterSeconds } from './types';
export { createMemoryLimiter } from './memory';
export { createRedisLimiter } from './redis';
