import type { ServerResponse } from 'node:http';
import type { Fault } from './faults';
export declare function geminiError(res: ServerResponse, status: number, message: string): void;
export declare function generateContent(res: ServerResponse, model: string, body: Record<string, any>, fault: Fault, stream: boolean): Promise<void>;
