// The Gemini API shapes this family writes (ai.google.dev/api/generate-content). Requests use the
// snake_case spellings of the REST docs for media (`inline_data`, `file_data`); the API accepts both
// spellings, and answers in camelCase (`inlineData`, `functionCall`, `usageMetadata`).

export type GeminiPart =
  | { text: string; thought?: boolean }
  | { inline_data: { mime_type: string; data: string } }
  | { file_data: { mime_type: string; file_uri: string } }
  | { functionCall: { name: string; args: Record<string, unknown>; id?: string } }
  | { functionResponse: { name: string; response: Record<string, unknown>; id?: string } };

export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}

export interface GeminiRequest {
  contents: GeminiContent[];
  systemInstruction?: { parts: { text: string }[] };
  generationConfig?: Record<string, unknown>;
  tools?: { functionDeclarations: { name: string; description?: string; parameters?: unknown }[] }[];
  toolConfig?: { functionCallingConfig: { mode: 'AUTO' | 'ANY' | 'NONE'; allowedFunctionNames?: string[] } };
}
