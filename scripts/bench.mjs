// `npm run bench`: the gateway benchmark (bench/run.mjs); with `--scale` or `--instances N` the scale-out
// benchmark instead (bench/scale.mjs: 1 … N instances behind a load balancer). Method and figures in
// docs/BENCHMARKS.md.
const scale = process.argv.slice(2).some((a) => a === '--scale' || a.startsWith('--instances'));
await import(scale ? '../bench/scale.mjs' : '../bench/run.mjs');
