// Security headers for the console and its API (@fastify/helmet): a Content-Security-Policy that fits
// what the console really loads (its own scripts; Arco's inline styles; images and media that site
// configs and task results may point elsewhere), no framing, nosniff, a strict referrer policy, and HSTS
// only on requests that arrived over TLS (directly or through a trusted proxy's X-Forwarded-Proto):
// sent over plain HTTP it would mean nothing, and on localhost it would pin a dev box to HTTPS.
import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

const HSTS = 'max-age=31536000; includeSubDomains';

export async function securityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        // Arco Design and ECharts set style attributes at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        // Site logos, carousels and avatars may live on other hosts; QR codes are data: URLs.
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        // Generated audio and video of tasks are played from the provider's URLs.
        mediaSrc: ["'self'", 'blob:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: false,
  });
  app.addHook('onRequest', async (request, reply) => {
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
  });
}
