// @ts-check
// The bare reference of `npm run bench`: the physical limit of our own runtime. A pass-through HTTP proxy
// in Node on one undici pool, with no auth, routing, billing or logs: it forwards method, path, headers
// and body to the upstream and streams the answer back as it arrives (an SSE stream passes chunk by
// chunk). The gateway's figures are read as ratios to this one's, measured in the same run, so the
// machine's noise cancels.
//
//   node bench/bare-proxy.mjs <port> <upstream base URL, e.g. http://127.0.0.1:8300>
import http from 'node:http';
import { createRequire } from 'node:module';
import { monitorEventLoopDelay } from 'node:perf_hooks';

// Resolved from the server package: the very undici (and version) the gateway's upstream calls run on.
/** @type {typeof import('undici')} */
const { Pool } = createRequire(new URL('../packages/server/package.json', import.meta.url))('undici');

const [portArg, upstream] = process.argv.slice(2);
const port = Number(portArg);
if (!Number.isInteger(port) || port <= 0 || !upstream) {
  console.error('usage: node bench/bare-proxy.mjs <port> <upstream base URL>');
  process.exit(2);
}

// The pool settings the gateway's upstream agent uses (packages/server/src/gateway/upstream.ts), so the
// two differ only by what the gateway does on top.
const pool = new Pool(upstream, { connections: 256, pipelining: 1, keepAliveTimeout: 30_000, keepAliveMaxTimeout: 300_000 });

// Hop-by-hop headers belong to one connection, not to the message (RFC 9110 §7.6.1); undici and
// node:http set their own host, framing and keep-alive.
const HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host']);

/** @param {Record<string, string | string[] | undefined>} headers */
function endToEnd(headers) {
  /** @type {Record<string, string | string[]>} */
  const out = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP.has(name)) out[name] = value;
  return out;
}

// The reference for the product's event-loop delay under the same steady load: what prom-client gives the
// product's /metrics (a 10 ms timer's intervals, reset at each read), read on this path and not forwarded.
const ELD_PATH = '/__bare/eventloop-p99';
const eld = monitorEventLoopDelay({ resolution: 10 });
eld.enable();

const server = http.createServer((req, res) => {
  if (req.url === ELD_PATH) {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ p99Seconds: eld.percentile(99) / 1e9 }));
    eld.reset();
    return;
  }
  const hasBody = req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
  pool.stream(
    { path: req.url ?? '/', method: /** @type {import('undici').Dispatcher.HttpMethod} */ (req.method ?? 'GET'), headers: endToEnd(req.headers), body: hasBody ? req : null },
    ({ statusCode, headers }) => {
      res.writeHead(statusCode, endToEnd(/** @type {Record<string, string | string[]>} */ (headers)));
      // undici writes each chunk to the client as it arrives (with backpressure) and ends it.
      return res;
    },
    (err) => {
      if (!err) return;
      if (res.headersSent) res.destroy(err);
      else res.writeHead(502, { 'content-type': 'text/plain' }).end('bad gateway\n');
    },
  );
});

server.listen(port, '127.0.0.1', () => console.log(`bare proxy at http://127.0.0.1:${port} → ${upstream}`));
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.once(signal, () => {
    server.close();
    void pool.close().finally(() => process.exit(0));
    server.closeAllConnections();
  });
}
