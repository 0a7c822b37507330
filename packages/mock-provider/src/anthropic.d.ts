import type { ServerResponse } from 'node:http';
import type { Fault } from './faults';
export declare function anthropicError(res: ServerResponse, status: number, message: string): void;
export declare function countMessageTokens(res: ServerResponse, body: Record<string, any>): void;
export declare function messages(res: ServerResponse, body: Record<string, any>, fault: Fault): Promise<void>;
