// Structured answers: a deterministic sample value for a JSON schema, and the Anthropic answer to a
// forced tool (tool_choice {type: 'tool'}) — a tool_use block whose input is that sample, so a gateway's
// response_format conversion can be tested end to end (the OpenAI SDK's parse() validates it).
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Fault } from './faults';
import { sendJson, sseData, startSse } from './http';
import { streamPieces } from './openai';
import { countTokens, pieces } from './text';

type Schema = Record<string, any>;

const MAX_DEPTH = 8;

/** A value the schema accepts: the first enum/const/anyOf choice, `mock` strings, numbers within bounds. */
function sampleFor(schema: unknown, root: unknown = schema, depth = 0): unknown {
  if (!schema || typeof schema !== 'object' || depth > MAX_DEPTH) return null;
  const s = schema as Schema;
  if (typeof s.$ref === 'string') {
    // Local references only: #/$defs/Name or #/definitions/Name.
    const target = s.$ref.replace(/^#\//, '').split('/').reduce<any>((node, key) => node?.[key], root);
    return sampleFor(target, root, depth + 1);
  }
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  const choice = s.anyOf ?? s.oneOf ?? s.allOf;
  if (Array.isArray(choice) && choice.length) return sampleFor(choice.find((c: Schema) => c?.type !== 'null') ?? choice[0], root, depth + 1);
  const type = Array.isArray(s.type) ? (s.type.find((t: string) => t !== 'null') ?? s.type[0]) : s.type;
  switch (type ?? (s.properties ? 'object' : undefined)) {
    case 'object':
      return Object.fromEntries(Object.entries((s.properties ?? {}) as Record<string, unknown>).map(([k, v]) => [k, sampleFor(v, root, depth + 1)]));
    case 'array':
      return Array.from({ length: Math.max(1, Number(s.minItems) || 0) }, () => sampleFor(s.items ?? {}, root, depth + 1));
    case 'string':
      return s.format === 'date-time' ? '2024-01-01T00:00:00Z' : s.format === 'date' ? '2024-01-01' : 'mock'.padEnd(Number(s.minLength) || 0, 'x');
    case 'integer':
    case 'number': {
      const low = typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : 0;
      return Math.min(Math.max(0, low), typeof s.maximum === 'number' ? s.maximum : Infinity);
    }
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return {};
  }
}

/** The tool a forced tool_choice names, when the request has it. */
function forcedTool(body: Record<string, any>): { name: string; input_schema?: unknown } | undefined {
  if (body.tool_choice?.type !== 'tool' || !Array.isArray(body.tools)) return undefined;
  return body.tools.find((t: { name?: string }) => t?.name === body.tool_choice.name);
}

/**
 * Answers a Messages request whose tool_choice forces a tool: one tool_use block with the schema's sample
 * as input (streamed as input_json_delta pieces), stop_reason tool_use. False when nothing is forced.
 */
export async function answerForcedTool(res: ServerResponse, body: Record<string, any>, fault: Fault, inputTokens: number): Promise<boolean> {
  const tool = forcedTool(body);
  if (!tool) return false;
  const model = String(body.model ?? 'mock');
  const input = sampleFor(tool.input_schema ?? {}) ?? {};
  const json = JSON.stringify(input);
  const usage = { input_tokens: inputTokens, output_tokens: countTokens(json) };
  const id = `msg_${randomUUID().replace(/-/g, '')}`;
  const block = { type: 'tool_use', id: `toolu_${randomUUID().replace(/-/g, '')}`, name: tool.name };
  if (!body.stream) {
    sendJson(res, 200, { id, type: 'message', role: 'assistant', model, content: [{ ...block, input }], stop_reason: 'tool_use', stop_sequence: null, usage });
    return true;
  }
  startSse(res);
  sseData(res, { type: 'message_start', message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: inputTokens, output_tokens: 1 } } }, 'message_start');
  sseData(res, { type: 'content_block_start', index: 0, content_block: { ...block, input: {} } }, 'content_block_start');
  const done = await streamPieces(res, pieces(json, fault.chunks ?? 3), fault, (part) =>
    sseData(res, { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: part } }, 'content_block_delta'),
  );
  if (!done) return true;
  sseData(res, { type: 'content_block_stop', index: 0 }, 'content_block_stop');
  sseData(res, { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: usage.output_tokens } }, 'message_delta');
  sseData(res, { type: 'message_stop' }, 'message_stop');
  res.end();
  return true;
}
