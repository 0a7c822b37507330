// Counters and histograms for what every gateway call records. prom-client sorts, hashes and validates a
// label object on each inc() and observe(), its labelled children too: ~2.3 µs of a gateway call's
// dozen recordings (docs/BENCHMARKS.md, seventh pass). Here a series is found once by a key its caller
// builds and then kept, so recording is an addition; prom-client's registry still formats them at a
// scrape, through the same `get()` its own metrics answer.
import type { Metric, MetricValueWithName, Registry } from 'prom-client';

type Labels = Record<string, string>;
/** What prom-client's metrics answer to `get()` (its typings declare `type` as an enum it does not have at run time). */
interface Values {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  aggregator: 'sum';
  values: MetricValueWithName<string>[];
}

abstract class KeyedMetric<S> {
  private readonly series = new Map<string, S>();
  readonly aggregator = 'sum' as const;
  abstract readonly type: 'counter' | 'histogram';

  constructor(
    readonly name: string,
    readonly help: string,
    registry: Registry,
  ) {
    // The registry formats whatever answers `get()` (registry.js getMetricsAsString).
    registry.registerMetric(this as unknown as Metric);
  }

  /**
   * The series of one label set, kept under a key its caller builds (`key` must differ whenever the labels
   * would): `at(key) ?? add(key, labels)`, so the labels object is made only the first time.
   */
  at(key: string): S | undefined {
    return this.series.get(key);
  }

  add(key: string, labels: Labels): S {
    const s = this.make(labels);
    this.series.set(key, s);
    return s;
  }

  protected abstract make(labels: Labels): S;

  protected all(): IterableIterator<S> {
    return this.series.values();
  }

  /** The registry's resetMetrics(). */
  reset(): void {
    this.series.clear();
  }

  abstract get(): Promise<Values>;
}

export class CounterSeries {
  value = 0;
  constructor(readonly labels: Labels) {}
  inc(by = 1): void {
    this.value += by;
  }
}

export class HotCounter extends KeyedMetric<CounterSeries> {
  readonly type = 'counter' as const;

  protected make(labels: Labels): CounterSeries {
    return new CounterSeries(labels);
  }

  async get(): Promise<Values> {
    const values = [...this.all()].map((s) => ({ labels: s.labels, value: s.value, metricName: this.name }));
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }
}

export class HistogramSeries {
  /** Observations per bucket (not cumulative), the last one past every bound. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;
  constructor(
    readonly labels: Labels,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(v: number): void {
    let i = 0;
    while (i < this.bounds.length && v > this.bounds[i]!) i++;
    this.counts[i]!++;
    this.sum += v;
    this.count++;
  }
}

export class HotHistogram extends KeyedMetric<HistogramSeries> {
  readonly type = 'histogram' as const;

  constructor(
    name: string,
    help: string,
    private readonly bounds: readonly number[],
    registry: Registry,
  ) {
    super(name, help, registry);
  }

  protected make(labels: Labels): HistogramSeries {
    return new HistogramSeries(labels, this.bounds);
  }

  /** As prom-client writes a histogram: cumulative `_bucket`s by `le`, then +Inf, `_sum` and `_count`. */
  async get(): Promise<Values> {
    const values: MetricValueWithName<string>[] = [];
    const bucket = `${this.name}_bucket`;
    for (const s of this.all()) {
      let acc = 0;
      this.bounds.forEach((le, i) => {
        acc += s.counts[i]!;
        values.push({ labels: { le, ...s.labels }, value: acc, metricName: bucket });
      });
      values.push({ labels: { le: '+Inf', ...s.labels }, value: s.count, metricName: bucket });
      values.push({ labels: s.labels, value: s.sum, metricName: `${this.name}_sum` });
      values.push({ labels: s.labels, value: s.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }
}
