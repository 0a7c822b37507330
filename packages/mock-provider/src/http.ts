// Small HTTP helpers over node:http (no framework: the benchmark measures the gateway against this).
import type { IncomingMessage, ServerResponse } from 'node:http';

export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export function startSse(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
}

export function sseData(res: ServerResponse, data: unknown, event?: string): void {
  res.write(`${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The API key of any family: Bearer, x-api-key (Anthropic), api-key (Azure), x-goog-api-key or ?key= (Gemini). */
export function apiKey(req: IncomingMessage, url: URL): string {
  const auth = req.headers.authorization ?? '';
  if (auth.toLowerCase().startsWith('bearer ')) return auth.slice(7).trim();
  for (const h of ['x-api-key', 'api-key', 'x-goog-api-key']) {
    const v = req.headers[h];
    if (typeof v === 'string' && v) return v;
  }
  return url.searchParams.get('key') ?? '';
}
