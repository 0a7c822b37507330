// Circuit breakers and cool-downs per provider key and model agent: memory for one process, Redis for many.
export { agentBreaker, keyBreaker } from './types';
export type { BreakerSettings, BreakerState, BreakerStatus, BreakerStore, LastError, Outcome } from './types';
export { availability, type Availability } from './policy';
export { createMemoryBreakers } from './memory';
export { createRedisBreakers } from './redis';
