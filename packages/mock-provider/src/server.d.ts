import type { IncomingHttpHeaders } from 'node:http';
import { FaultBook } from './faults';
export interface RecordedRequest {
    method: string;
    path: string;
    key: string;
    model: string;
    body: unknown;
    headers: IncomingHttpHeaders;
    at: number;
}
export interface MockProvider {
    url: string;
    port: number;
    faults: FaultBook;
    requests: RecordedRequest[];
    close(): Promise<void>;
}
export interface MockOptions {
    port?: number;
    host?: string;
    /** Keep the last N requests for assertions (0 = none, e.g. in the benchmark). */
    record?: number;
    /** Model ids served by GET /v1/models. */
    models?: string[];
}
export declare function startMockProvider(opts?: MockOptions): Promise<MockProvider>;
