export interface Fault {
    /** Answer with this HTTP status and an error body. */
    status?: number;
    /** Error message text of that error body. */
    error?: string;
    /** Error `code` in the body (e.g. insufficient_quota). */
    code?: string;
    /** Wait before answering (ms). */
    delay?: number;
    /** Never answer (the client's timeout must fire). */
    timeout?: boolean;
    /** Destroy the connection without an answer. */
    reset?: boolean;
    /** Streams: destroy the connection after this many content chunks. */
    fail_after?: number;
    /** Streams: after this many content chunks, send nothing more and hold the connection open (a
     *  stalled upstream: the client's idle timeout must fire). */
    stall_after?: number;
    /** Streams: number of content chunks, and the delay between them (ms). */
    chunks?: number;
    chunk_delay?: number;
    /** Leave usage out of the response (the gateway must count tokens itself). */
    no_usage?: boolean;
    /** Answer with exactly this text instead of the echo. */
    reply?: string;
    /** Async tasks (tasks.ts), fixed at submission: the outcome, the poll that finishes it, the polls
     *  that still say `queued`, and the seconds of media reported. */
    task?: 'succeed' | 'fail' | 'stall';
    polls?: number;
    queued?: number;
    duration?: number;
}
export interface KeyFault extends Fault {
    key: string;
    model?: string;
    /** How many calls it applies to; absent = until cleared. */
    times?: number;
}
/** Directives written into the prompt: `[[mock:status=500]] [[mock:error=boom]] [[mock:reset]]`. */
export declare function parseDirectives(text: string): Fault;
export declare class FaultBook {
    private faults;
    add(f: KeyFault): void;
    clear(): void;
    /** The fault for this key and model, counting one use of it. */
    take(key: string, model: string): Fault | undefined;
}
