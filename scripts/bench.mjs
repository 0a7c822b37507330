// `npm run bench`: the gateway benchmark (bench/run.mjs; method and figures in docs/BENCHMARKS.md).
import '../bench/run.mjs';
