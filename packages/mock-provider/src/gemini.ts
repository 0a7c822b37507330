// Google Gemini answers: generateContent (JSON and `alt=sse` streams), countTokens and the model list.
// - Function calling: with functionDeclarations and a last user text that mentions "weather", the
//   answer is a functionCall of the first declaration with {city: 'Paris'}, finishReason STOP.
// - A last turn of functionResponse parts is answered with text that echoes the responses' content.
import type { ServerResponse } from 'node:http';
import { usageDetails, type Fault } from './faults';
import { sendJson, sseData, startSse } from './http';
import { streamPieces } from './openai';
import { answerFor, countTokens, pieces } from './text';

type Part = { text?: string; functionResponse?: { name?: string; response?: unknown } };
type Content = { role?: string; parts?: Part[] };

const partsText = (c: Content | undefined) => (c?.parts ?? []).map((p) => p.text ?? '').join('');
/** What the model "heard" last: the text, or the functionResponses' content when that is the turn. */
const lastTurnText = (c: Content | undefined) => (c?.parts ?? []).map((p) => p.text ?? (p.functionResponse ? JSON.stringify(p.functionResponse.response ?? {}) : '')).join('');

export function geminiError(res: ServerResponse, status: number, message: string): void {
  const name = status === 401 || status === 403 ? 'UNAUTHENTICATED' : status === 404 ? 'NOT_FOUND' : status === 429 ? 'RESOURCE_EXHAUSTED' : status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT';
  sendJson(res, status, { error: { code: status, message, status: name } });
}

/** The prompt as the mock counts it: system instruction and every turn's text. */
function promptOf(body: Record<string, any>): string {
  const contents: Content[] = Array.isArray(body.contents) ? body.contents : [];
  return [partsText(body.systemInstruction), ...contents.map(partsText)].filter(Boolean).join('\n');
}

/** The first declared function, when the last turn asks about the weather. */
function calledFunction(body: Record<string, any>, last: Content | undefined): string | undefined {
  const declared = (Array.isArray(body.tools) ? body.tools : []).flatMap((t: { functionDeclarations?: { name?: string }[] }) => t?.functionDeclarations ?? []);
  if (!declared.length || !/\bweather\b/i.test(partsText(last))) return undefined;
  return declared[0]?.name ?? 'tool';
}

export async function generateContent(res: ServerResponse, model: string, body: Record<string, any>, fault: Fault, stream: boolean): Promise<void> {
  const contents: Content[] = Array.isArray(body.contents) ? body.contents : [];
  const prompt = promptOf(body);
  const call = calledFunction(body, contents.at(-1));
  const answer = fault.reply ?? answerFor(model, lastTurnText(contents.at(-1)));
  const output = call ? JSON.stringify({ city: 'Paris' }) : answer;
  // Gemini counts cached content inside promptTokenCount, thoughts apart from candidatesTokenCount.
  const d = usageDetails(fault);
  const promptTokenCount = countTokens(prompt) + d.cached;
  const usageMetadata = {
    promptTokenCount,
    candidatesTokenCount: countTokens(output),
    totalTokenCount: promptTokenCount + countTokens(output) + d.reasoning,
    ...(d.cached ? { cachedContentTokenCount: d.cached } : {}),
    ...(d.reasoning ? { thoughtsTokenCount: d.reasoning } : {}),
  };
  const candidate = (parts: object[], finishReason?: string) => ({ content: { role: 'model', parts }, index: 0, ...(finishReason ? { finishReason } : {}) });
  if (call) {
    const parts = [{ functionCall: { name: call, args: { city: 'Paris' } } }];
    if (!stream) return sendJson(res, 200, { candidates: [candidate(parts, 'STOP')], usageMetadata, modelVersion: model });
    startSse(res);
    sseData(res, { candidates: [candidate(parts, 'STOP')], usageMetadata, modelVersion: model });
    res.end();
    return;
  }
  if (!stream) {
    sendJson(res, 200, { candidates: [candidate([{ text: answer }], 'STOP')], usageMetadata, modelVersion: model });
    return;
  }
  startSse(res);
  const texts = pieces(answer, fault.chunks);
  // Like Gemini, every event carries usageMetadata: the prompt's count at once, the answer's at the end.
  const soFar = { promptTokenCount: usageMetadata.promptTokenCount, totalTokenCount: usageMetadata.promptTokenCount };
  const done = await streamPieces(res, texts, fault, (text, i) =>
    sseData(res, i === texts.length - 1 ? { candidates: [candidate([{ text }], 'STOP')], usageMetadata, modelVersion: model } : { candidates: [candidate([{ text }])], usageMetadata: soFar, modelVersion: model }),
  );
  if (done) res.end();
}

/** `{contents}` or `{generateContentRequest}` → `{totalTokens}`, counted like generateContent's prompt. */
export function countGeminiTokens(res: ServerResponse, body: Record<string, any>): void {
  const request = body.generateContentRequest && typeof body.generateContentRequest === 'object' ? body.generateContentRequest : body;
  sendJson(res, 200, { totalTokens: countTokens(promptOf(request)) });
}

/** GET /v1beta/models in Gemini's Model shape. */
export function geminiModels(res: ServerResponse, ids: string[]): void {
  sendJson(res, 200, {
    models: ids.map((id) => ({ name: `models/${id}`, displayName: id, supportedGenerationMethods: ['generateContent', 'countTokens'], inputTokenLimit: 1_048_576, outputTokenLimit: 8192 })),
  });
}
