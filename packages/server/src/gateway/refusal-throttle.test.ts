import { describe, expect, it } from 'vitest';
import { RefusalThrottle } from './refusal-throttle';

describe('refusal throttle', () => {
  it('lets a burst of ten rows through per key and reason, then one a second, counting what it drops', () => {
    const t = new RefusalThrottle();
    for (let i = 0; i < 10; i++) expect(t.take('k1', 'model_not_found', 1000)).toBe(0);
    expect(t.take('k1', 'model_not_found', 1000)).toBeUndefined();
    expect(t.take('k1', 'model_not_found', 1500)).toBeUndefined();
    // Another reason and another key have their own allowance.
    expect(t.take('k1', 'rate_limit_exceeded', 1500)).toBe(0);
    expect(t.take('k2', 'model_not_found', 1500)).toBe(0);
    // A second later one row comes back; it stands for the two dropped.
    expect(t.take('k1', 'model_not_found', 2000)).toBe(2);
    expect(t.take('k1', 'model_not_found', 2000)).toBeUndefined();
    // Out-of-order stamps never refill.
    expect(t.take('k1', 'model_not_found', 1200)).toBeUndefined();
    expect(t.take('k1', 'model_not_found', 3000)).toBe(2);
  });

  it('forgets idle keys, full again', () => {
    const t = new RefusalThrottle();
    for (let i = 0; i < 11; i++) t.take('k1', 'model_not_found', 0);
    for (let i = 0; i < 10; i++) expect(t.take('k1', 'model_not_found', 120_000)).toBe(0);
  });
});
