// `npm run bench:logs`: call logs, bills and the dashboard at 1,000,000 rows (bench/logs.mjs; method and figures in docs/BENCHMARKS.md).
import '../bench/logs.mjs';
