// Google Gemini generateContent answers (JSON and `alt=sse` streams).
import type { ServerResponse } from 'node:http';
import type { Fault } from './faults';
import { sendJson, sseData, startSse } from './http';
import { streamPieces } from './openai';
import { answerFor, countTokens, pieces } from './text';

type Content = { role?: string; parts?: { text?: string }[] };
const partsText = (c: Content | undefined) => (c?.parts ?? []).map((p) => p.text ?? '').join('');

export function geminiError(res: ServerResponse, status: number, message: string): void {
  const name = status === 401 || status === 403 ? 'UNAUTHENTICATED' : status === 429 ? 'RESOURCE_EXHAUSTED' : status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT';
  sendJson(res, status, { error: { code: status, message, status: name } });
}

export async function generateContent(res: ServerResponse, model: string, body: Record<string, any>, fault: Fault, stream: boolean): Promise<void> {
  const contents: Content[] = Array.isArray(body.contents) ? body.contents : [];
  const prompt = [partsText(body.systemInstruction), ...contents.map(partsText)].filter(Boolean).join('\n');
  const answer = answerFor(model, partsText(contents.at(-1)));
  const usageMetadata = { promptTokenCount: countTokens(prompt), candidatesTokenCount: countTokens(answer), totalTokenCount: countTokens(prompt) + countTokens(answer) };
  const candidate = (t: string, finishReason?: string) => ({ content: { role: 'model', parts: [{ text: t }] }, index: 0, ...(finishReason ? { finishReason } : {}) });
  if (!stream) {
    sendJson(res, 200, { candidates: [candidate(answer, 'STOP')], usageMetadata, modelVersion: model });
    return;
  }
  startSse(res);
  const parts = pieces(answer, fault.chunks);
  // Like Gemini, every event carries usageMetadata: the prompt's count at once, the answer's at the end.
  const soFar = { promptTokenCount: usageMetadata.promptTokenCount, totalTokenCount: usageMetadata.promptTokenCount };
  const done = await streamPieces(res, parts, fault, (part, i) =>
    sseData(res, i === parts.length - 1 ? { candidates: [candidate(part, 'STOP')], usageMetadata, modelVersion: model } : { candidates: [candidate(part)], usageMetadata: soFar, modelVersion: model }),
  );
  if (done) res.end();
}
