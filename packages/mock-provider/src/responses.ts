// OpenAI Responses answers: POST /v1/responses, JSON and the real SSE event sequence. The mock keeps
// nothing (a gateway must never need the upstream's store): previous_response_id is refused and
// GET/DELETE /v1/responses/{id} answer 404, as OpenAI does for a response it does not have.
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { usageDetails, type Fault } from './faults';
import { sendJson, sseData, startSse } from './http';
import { argumentPieces, openaiError, randomHex, streamPieces, TOOL_ARGUMENTS, WEATHER } from './openai';
import { answerFor, countTokens, pieces } from './text';

type Item = Record<string, any>;

/** The text of a content (string or parts: input_text, output_text, refusal). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  return Array.isArray(content) ? content.map((p: { text?: string; refusal?: string }) => p?.text ?? p?.refusal ?? '').join('') : '';
}

const itemsOf = (input: unknown): Item[] => (typeof input === 'string' ? [{ type: 'message', role: 'user', content: input }] : Array.isArray(input) ? input : []);

/** One item's text: a message's content, a tool's output; a function call has none (like chat's null content). */
function itemText(item: Item): string {
  if (item.type === 'function_call_output') return contentText(item.output);
  return (item.type ?? 'message') === 'message' ? contentText(item.content) : '';
}

/** All input text as the mock counts it: the instructions, then every item (the chat mock's rule, so a
 *  conversation costs the same whichever wire carries it). */
function promptOf(body: Item): string {
  return [...(typeof body.instructions === 'string' && body.instructions ? [body.instructions] : []), ...itemsOf(body.input).map(itemText)].join('\n');
}

export function responseNotFound(res: ServerResponse, id: string): void {
  openaiError(res, 404, `Response with id '${id}' not found.`);
}

export async function createResponse(res: ServerResponse, body: Item, fault: Fault): Promise<void> {
  if (body.previous_response_id) return openaiError(res, 400, `Previous response with id '${String(body.previous_response_id)}' not found.`, 'previous_response_not_found');
  const model = String(body.model ?? 'mock');
  const prompt = promptOf(body);
  const answer = fault.reply ?? answerFor(model, prompt.split('\n').at(-1) ?? '');
  // A tool call is billed like the text it replaces (as the chat mock does).
  const d = usageDetails(fault);
  const input = countTokens(prompt) + d.cached + d.write5m + d.write1h;
  const output = countTokens(answer) + d.reasoning;
  const details = { input_tokens_details: { cached_tokens: d.cached, cache_write_tokens: d.write5m + d.write1h }, output_tokens_details: { reasoning_tokens: d.reasoning } };
  const usage = fault.no_usage ? null : { input_tokens: input, ...details, output_tokens: output, total_tokens: input + output };
  const last = itemsOf(body.input).at(-1);
  const tools = Array.isArray(body.tools) ? body.tools.filter((t: Item) => t?.type === 'function') : [];
  const asked = tools.length > 0 && (last?.type ?? 'message') === 'message' && last?.role === 'user' && WEATHER.test(contentText(last.content));
  const call = asked ? { type: 'function_call', id: `fc_${randomHex()}`, call_id: `call_${randomHex()}`, name: String(tools[0].name ?? 'tool') } : undefined;
  const message = { type: 'message', id: `msg_${randomHex()}`, role: 'assistant' };
  const textPart = (text: string) => ({ type: 'output_text', annotations: [], logprobs: [], text });
  const shell = (status: string, out: Item[], u: typeof usage) => ({
    id: `resp_${randomUUID().replace(/-/g, '')}`,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status,
    background: false,
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model,
    output: out,
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: null,
    reasoning: { effort: body.reasoning?.effort ?? null, summary: body.reasoning?.summary ?? null },
    store: body.store ?? true,
    temperature: body.temperature ?? 1,
    text: { format: body.text?.format ?? { type: 'text' }, verbosity: body.text?.verbosity ?? 'medium' },
    tool_choice: body.tool_choice ?? 'auto',
    tools: body.tools ?? [],
    top_p: body.top_p ?? 1,
    truncation: 'disabled',
    usage: u,
    user: body.user ?? null,
    metadata: body.metadata ?? {},
  });
  const finished = call ? { ...call, arguments: TOOL_ARGUMENTS, status: 'completed' } : { ...message, status: 'completed', content: [textPart(answer)] };
  if (!body.stream) return sendJson(res, 200, shell('completed', [finished], usage));

  startSse(res);
  let seq = 0;
  const send = (type: string, fields: Item) => sseData(res, { type, sequence_number: seq++, ...fields }, type);
  const response = shell('in_progress', [], null);
  send('response.created', { response });
  send('response.in_progress', { response });
  const at = { item_id: (call ?? message).id, output_index: 0 };
  let done: boolean;
  if (call) {
    send('response.output_item.added', { output_index: 0, item: { ...call, arguments: '', status: 'in_progress' } });
    done = await streamPieces(res, argumentPieces(fault), fault, (delta) => send('response.function_call_arguments.delta', { ...at, delta }));
    if (!done) return;
    send('response.function_call_arguments.done', { ...at, name: call.name, arguments: TOOL_ARGUMENTS });
  } else {
    send('response.output_item.added', { output_index: 0, item: { ...message, status: 'in_progress', content: [] } });
    send('response.content_part.added', { ...at, content_index: 0, part: textPart('') });
    done = await streamPieces(res, pieces(answer, fault.chunks), fault, (delta) => send('response.output_text.delta', { ...at, content_index: 0, delta, logprobs: [] }));
    if (!done) return;
    send('response.output_text.done', { ...at, content_index: 0, text: answer, logprobs: [] });
    send('response.content_part.done', { ...at, content_index: 0, part: textPart(answer) });
  }
  send('response.output_item.done', { output_index: 0, item: finished });
  send('response.completed', { response: { ...response, status: 'completed', output: [finished], usage } });
  res.end();
}
