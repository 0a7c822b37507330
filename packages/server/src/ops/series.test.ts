import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { HotCounter, HotHistogram } from './series';

const BOUNDS = [0.005, 0.01, 0.1, 1, 10];

describe('hot series', () => {
  it('write what prom-client writes for the same observations, bounds and labels included', async () => {
    const mine = new Registry();
    const theirs = new Registry();
    const hc = new HotCounter('c_total', 'help c', mine);
    const hh = new HotHistogram('h_seconds', 'help h', BOUNDS, mine);
    const pc = new Counter({ name: 'c_total', help: 'help c', labelNames: ['a', 'b'], registers: [theirs] });
    const ph = new Histogram({ name: 'h_seconds', help: 'help h', labelNames: ['a'], buckets: BOUNDS, registers: [theirs] });
    const values = [0, 0.005, 0.0051, 0.01, 0.5, 1, 9.99, 10, 11, 300, ...Array.from({ length: 200 }, (_, i) => (i * 0.37) % 12)];
    for (const [i, v] of values.entries()) {
      const a = i % 3 === 0 ? 'x' : 'y "quoted"\\';
      (hc.at(`${a} b`) ?? hc.add(`${a} b`, { a, b: 'b' })).inc(i);
      pc.inc({ a, b: 'b' }, i);
      (hh.at(a) ?? hh.add(a, { a })).observe(v);
      ph.observe({ a }, v);
    }
    expect(await mine.metrics()).toBe(await theirs.metrics());
  });

  it('forget their series when the registry resets', async () => {
    const registry = new Registry();
    const c = new HotCounter('c_total', 'help', registry);
    (c.at('k') ?? c.add('k', { k: 'v' })).inc();
    registry.resetMetrics();
    expect(await registry.metrics()).not.toContain('c_total{');
  });
});
