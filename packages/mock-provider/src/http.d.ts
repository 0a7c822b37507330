import type { IncomingMessage, ServerResponse } from 'node:http';
export declare function readBody(req: IncomingMessage): Promise<Buffer>;
export declare function sendJson(res: ServerResponse, status: number, body: unknown): void;
export declare function startSse(res: ServerResponse): void;
export declare function sseData(res: ServerResponse, data: unknown, event?: string): void;
export declare const sleep: (ms: number) => Promise<unknown>;
/** The API key of any family: Bearer, x-api-key (Anthropic), api-key (Azure), x-goog-api-key or ?key= (Gemini). */
export declare function apiKey(req: IncomingMessage, url: URL): string;
