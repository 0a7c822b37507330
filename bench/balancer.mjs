// @ts-check
// The scale benchmark's load balancer (bench/scale.mjs): a minimal TCP proxy that gives each new
// connection to the backend with the fewest open ones (ties rotate), like nginx's `least_conn` or
// HAProxy in TCP mode. HTTP keep-alive connections stay on their backend, so 64 client connections
// split 32 / 32 over two instances. No nginx here: the machine has none, and this one costs less CPU.
//
//   node bench/balancer.mjs <listen port> <backend port> [<backend port> …]     (all on 127.0.0.1)
import net from 'node:net';

const [listen, ...backends] = process.argv.slice(2).map(Number);
if (!listen || backends.length === 0 || backends.some((p) => !Number.isInteger(p))) {
  console.error('usage: node bench/balancer.mjs <listen port> <backend port>...');
  process.exit(2);
}
const open = backends.map(() => 0);
let next = 0;

function choose() {
  let best = -1;
  for (let k = 0; k < backends.length; k++) {
    const i = (next + k) % backends.length;
    if (best < 0 || open[i] < open[best]) best = i;
  }
  next = (best + 1) % backends.length;
  return best;
}

const server = net.createServer({ noDelay: true }, (client) => {
  const i = choose();
  open[i]++;
  const upstream = net.connect({ port: backends[i], host: '127.0.0.1', noDelay: true });
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    open[i]--;
    client.destroy();
    upstream.destroy();
  };
  // pipe() honours back-pressure both ways; either side closing or failing ends the pair.
  client.pipe(upstream).pipe(client);
  for (const s of [client, upstream]) {
    s.on('error', close);
    s.on('close', close);
  }
});

server.listen(listen, '127.0.0.1', () => console.log(`balancer on 127.0.0.1:${listen} → ${backends.join(', ')}`));
// Nothing to drain: the benchmark stops the balancer after its load generator is done.
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) process.once(signal, () => process.exit(0));
