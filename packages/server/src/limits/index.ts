// Rate limits (SPEC §3 rps…ipd; gateway-semantics §3, §7.7): memory for one process, Redis for many.
export type { AdmitResult, IpLimitName, LimitName, LimitScope, RateLimiter, RequestLimitName, ScopeLimits, TokenLimitName } from './types';
export { retryAfterSeconds } from './types';
export { createMemoryLimiter, type MemoryLimiter, type MemoryLimiterOptions } from './memory';
export { createRedisLimiter, type RedisLimiterOptions } from './redis';
