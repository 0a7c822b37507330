import type { ServerResponse } from 'node:http';
import type { Fault } from './faults';
export interface ChatMessage {
    role: string;
    content: unknown;
}
/** All text of a message list, the way the mock counts prompt tokens. */
export declare function messagesText(messages: ChatMessage[] | undefined): string;
export declare function openaiError(res: ServerResponse, status: number, message: string, code?: string): void;
/** Writes chunks until done, or destroys the socket after `fail_after` chunks, or falls silent after `stall_after`. */
export declare function streamPieces(res: ServerResponse, parts: string[], fault: Fault, write: (part: string, index: number) => void): Promise<boolean>;
export declare function chatCompletion(res: ServerResponse, body: Record<string, any>, fault: Fault): Promise<void>;
export declare function completion(res: ServerResponse, body: Record<string, any>, fault: Fault): Promise<void>;
export declare function embeddings(res: ServerResponse, body: Record<string, any>): void;
export declare function images(res: ServerResponse, body: Record<string, any>): void;
export declare function speech(res: ServerResponse, body: Record<string, any>): void;
export declare function transcription(res: ServerResponse, size: number): void;
export declare function moderation(res: ServerResponse, body: Record<string, any>): void;
export declare function models(res: ServerResponse, ids: string[]): void;
