// Serves the built console: hashed assets with long caching, index.html for every client route.
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { envelopeNotFound } from './http/envelope';
import { serveUploads } from './settings/uploads';

export async function webConsole(app: FastifyInstance, opts: { dist: string }) {
  // Site images uploaded through /api/v1/sys/site/upload, immutable and read-only.
  serveUploads(app, app.ctx.config.dataDir);
  const index = path.join(opts.dist, 'index.html');
  const built = fs.existsSync(index);
  if (!built) app.log.warn({ dist: opts.dist }, 'the console is not built; serving the API only (run npm run build)');
  else {
    await app.register(fastifyStatic, {
      root: opts.dist,
      index: false,
      wildcard: false,
      setHeaders(res, file) {
        res.header('cache-control', file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  const html = built ? fs.readFileSync(index) : null;
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0]!;
    if (url.startsWith('/api/') || url === '/api') return envelopeNotFound(request, reply);
    if (!html || (request.method !== 'GET' && request.method !== 'HEAD')) return reply.status(404).type('text/plain').send('Not Found');
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
  });
}
