// Anthropic Messages answers (JSON and the event stream).
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Fault } from './faults';
import { sendJson, sseData, startSse } from './http';
import { streamPieces } from './openai';
import { answerFor, countTokens, pieces } from './text';

type Block = { type: string; text?: string };

function text(content: unknown): string {
  return typeof content === 'string' ? content : Array.isArray(content) ? (content as Block[]).map((b) => b.text ?? '').join('') : '';
}

export function anthropicError(res: ServerResponse, status: number, message: string): void {
  const type = status === 401 ? 'authentication_error' : status === 429 ? 'rate_limit_error' : status === 529 ? 'overloaded_error' : status >= 500 ? 'api_error' : 'invalid_request_error';
  sendJson(res, status, { type: 'error', error: { type, message } });
}

type Turn = { role: string; content: unknown };

const turns = (body: Record<string, any>): Turn[] => (Array.isArray(body.messages) ? body.messages : []);

/** What the mock counts as input: the system prompt and every turn's text. */
function inputTokens(body: Record<string, any>): number {
  return countTokens([text(body.system), ...turns(body).map((m) => text(m.content))].filter(Boolean).join('\n'));
}

/** POST /v1/messages/count_tokens: the input_tokens a message with this body would report. */
export function countMessageTokens(res: ServerResponse, body: Record<string, any>): void {
  sendJson(res, 200, { input_tokens: inputTokens(body) });
}

export async function messages(res: ServerResponse, body: Record<string, any>, fault: Fault): Promise<void> {
  const model = String(body.model ?? 'mock');
  const answer = answerFor(model, text(turns(body).at(-1)?.content));
  const usage = { input_tokens: inputTokens(body), output_tokens: countTokens(answer) };
  const id = `msg_${randomUUID().replace(/-/g, '')}`;
  if (!body.stream) {
    sendJson(res, 200, { id, type: 'message', role: 'assistant', model, content: [{ type: 'text', text: answer }], stop_reason: 'end_turn', stop_sequence: null, usage });
    return;
  }
  startSse(res);
  sseData(res, { type: 'message_start', message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: usage.input_tokens, output_tokens: 1 } } }, 'message_start');
  sseData(res, { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start');
  sseData(res, { type: 'ping' }, 'ping');
  const done = await streamPieces(res, pieces(answer, fault.chunks), fault, (part) =>
    sseData(res, { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: part } }, 'content_block_delta'),
  );
  if (!done) return;
  sseData(res, { type: 'content_block_stop', index: 0 }, 'content_block_stop');
  sseData(res, { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: usage.output_tokens } }, 'message_delta');
  sseData(res, { type: 'message_stop' }, 'message_stop');
  res.end();
}
