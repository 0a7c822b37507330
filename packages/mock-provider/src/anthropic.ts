// Anthropic Messages answers (JSON and the event stream).
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { usageDetails, type Fault } from './faults';
import { sendJson, sseData, startSse } from './http';
import { argumentPieces, randomHex, streamPieces, TOOL_ARGUMENTS, WEATHER } from './openai';
import { answerForcedTool } from './structured';
import { answerFor, countTokens, pieces } from './text';

type Block = { type: string; text?: string; content?: unknown };

/** The text of a turn; a tool result counts with its content, so a tool's output is echoed back. */
function text(content: unknown): string {
  return typeof content === 'string' ? content : Array.isArray(content) ? (content as Block[]).map((b) => b.text ?? (b.type === 'tool_result' ? text(b.content) : '')).join('') : '';
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

/** The weather trigger (openai.ts): tools given and the last turn a user's own words, not a tool result. */
function weatherCall(body: Record<string, any>): { type: 'tool_use'; id: string; name: string } | undefined {
  const last = turns(body).at(-1);
  const toolResult = Array.isArray(last?.content) && (last.content as Block[]).some((b) => b?.type === 'tool_result');
  if (!Array.isArray(body.tools) || !body.tools.length || last?.role !== 'user' || toolResult || !WEATHER.test(text(last.content))) return undefined;
  return { type: 'tool_use', id: `toolu_${randomHex()}`, name: String(body.tools[0].name ?? 'tool') };
}

export async function messages(res: ServerResponse, body: Record<string, any>, fault: Fault): Promise<void> {
  if (await answerForcedTool(res, body, fault, inputTokens(body))) return;
  const model = String(body.model ?? 'mock');
  const answer = answerFor(model, text(turns(body).at(-1)?.content));
  // A tool call is billed like the text it replaces (as the chat mock does).
  const d = usageDetails(fault);
  const cache = d.any
    ? { cache_creation_input_tokens: d.write5m + d.write1h, cache_read_input_tokens: d.cached, cache_creation: { ephemeral_5m_input_tokens: d.write5m, ephemeral_1h_input_tokens: d.write1h } }
    : {};
  const usage = { input_tokens: inputTokens(body), ...cache, output_tokens: countTokens(answer) + d.reasoning };
  const id = `msg_${randomUUID().replace(/-/g, '')}`;
  const call = weatherCall(body);
  const stop = call ? 'tool_use' : 'end_turn';
  if (!body.stream) {
    const content = call ? [{ ...call, input: JSON.parse(TOOL_ARGUMENTS) as unknown }] : [{ type: 'text', text: answer }];
    sendJson(res, 200, { id, type: 'message', role: 'assistant', model, content, stop_reason: stop, stop_sequence: null, usage });
    return;
  }
  startSse(res);
  sseData(res, { type: 'message_start', message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: usage.input_tokens, ...cache, output_tokens: 1 } } }, 'message_start');
  sseData(res, { type: 'content_block_start', index: 0, content_block: call ? { ...call, input: {} } : { type: 'text', text: '' } }, 'content_block_start');
  sseData(res, { type: 'ping' }, 'ping');
  const done = call
    ? await streamPieces(res, argumentPieces(fault), fault, (part) => sseData(res, { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: part } }, 'content_block_delta'))
    : await streamPieces(res, pieces(answer, fault.chunks), fault, (part) => sseData(res, { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: part } }, 'content_block_delta'));
  if (!done) return;
  sseData(res, { type: 'content_block_stop', index: 0 }, 'content_block_stop');
  sseData(res, { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } }, 'message_delta');
  sseData(res, { type: 'message_stop' }, 'message_stop');
  res.end();
}
