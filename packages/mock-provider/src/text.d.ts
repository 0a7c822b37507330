/** The mock's token count: one token per started group of 4 characters (at least 1 for non-empty text). */
export declare function countTokens(text: string): number;
export declare function answerFor(model: string, prompt: string): string;
/** Splits an answer into `n` stream pieces (words by default). */
export declare function pieces(text: string, n?: number): string[];
/** A unit vector derived from the text, `dims` long. */
export declare function embeddingFor(text: string, dims?: number): number[];
