// Local token counting (docs/ORIGINAL-GATEWAY.md §1.12) with gpt-tokenizer, offline. Used after the call, when the upstream
// gave no usage, the client aborted, or the model bills "by system" — never on the hot path before the call
// (estimate.ts has the cheap bound for that).
import { createRequire } from 'node:module';
import { GptEncoding } from 'gpt-tokenizer/GptEncoding';
import type { ChatMessage, Usage } from '../providers/types';
import { clean } from './decimal';
import type { BillableUsage } from './price';
import { audioTokens, imageTokens } from './media';

type Encoding = 'o200k_base' | 'cl100k_base';

/**
 * o200k for OpenAI's 2024+ families (gpt-4o, gpt-4.1, gpt-4.5, gpt-5, o1/o3/o4, gpt-oss, realtime/audio/image);
 * cl100k for everything else, including non-OpenAI models whose tokenizers we don't ship (an approximation,
 * docs/ORIGINAL-GATEWAY.md §7.9 — provider usage stays the first source). A vendor prefix ("openai/gpt-4o") is ignored.
 */
const O200K = /^(?:[\w.-]+\/)?(?:chatgpt-4o|gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|gpt-oss|gpt-realtime|gpt-audio|gpt-image|o[134](?:-|$)|omni-)/i;

export function encodingFor(model: string | undefined): Encoding {
  return model && O200K.test(model) ? 'o200k_base' : 'cl100k_base';
}

// The rank tables are ~24 MB of strings and most processes never count locally (upstreams report usage):
// load a table only when first needed, synchronously, then build its encoder once (~50–80 ms).
const requireRanks = createRequire(import.meta.url);
const encoders = new Map<Encoding, GptEncoding>();
function encoder(model: string | undefined): GptEncoding {
  const name = encodingFor(model);
  let enc = encoders.get(name);
  if (!enc) {
    const ranks = (requireRanks(`gpt-tokenizer/bpeRanks/${name}`) as { default: Parameters<typeof GptEncoding.getEncodingApi>[1] extends () => infer R ? R : never }).default;
    enc = GptEncoding.getEncodingApi(name, () => ranks);
    encoders.set(name, enc);
  }
  return enc;
}

/** Client text may contain "<|endoftext|>": count it as plain text instead of throwing (the default). */
const PLAIN = { disallowedSpecial: new Set<string>() };

export function countText(text: string | null | undefined, model?: string): number {
  return text ? encoder(model).countTokens(text, PLAIN) : 0;
}

/** Per message 3 (`<|start|>…<|message|>…<|end|>`), plus 1 when a name is given; 3 to prime the reply (docs/ORIGINAL-GATEWAY.md §1.12). */
const PER_MESSAGE = 3;
const PER_NAME = 1;
const PRIMING = 3;

/**
 * Prompt tokens of a chat. Every part of every message counts (the original counted only the last message
 * of multimodal requests, docs/ORIGINAL-GATEWAY.md §1.12/§7.9); images cost `IMAGE_TOKENS.typical` (85 at detail low), input audio
 * `audioTokens`, assistant tool calls their name and arguments, tools their JSON definition.
 */
export function countChatPrompt(messages: readonly ChatMessage[], model?: string, tools?: unknown): number {
  const count = (s: string | undefined) => countText(s, model);
  let total = PRIMING;
  for (const m of messages) {
    total += PER_MESSAGE + count(m.role);
    if (m.name) total += count(m.name) + PER_NAME;
    if (typeof m.content === 'string') total += count(m.content);
    else if (Array.isArray(m.content)) {
      for (const part of m.content) {
        if (part.type === 'text') total += count(part.text);
        else if (part.type === 'image_url') total += imageTokens(part.image_url.detail, 'typical');
        else if (part.type === 'input_audio') total += audioTokens(part.input_audio.data.length);
      }
    }
    for (const call of m.tool_calls ?? []) total += count(call.function.name) + count(call.function.arguments);
    if (m.tool_call_id) total += count(m.tool_call_id);
  }
  if (Array.isArray(tools) && tools.length) total += count(JSON.stringify(tools));
  return total;
}

export function countCompletion(text: string | null | undefined, model?: string): number {
  return countText(text, model);
}

export interface LocalCount {
  prompt: number;
  completion: number;
}

/**
 * Whether `mergeUsage` will look at a local count — counting costs milliseconds, skip it when not.
 * Rule 2 always; rule 1 only when a side is missing or zero, or the client aborted.
 */
export function needsLocalCount(upstream: Usage | undefined, rule: 1 | 2, aborted: boolean): boolean {
  return rule === 2 || aborted || !upstream || !clean(upstream.prompt_tokens) || !clean(upstream.completion_tokens);
}

/**
 * The usage to bill (docs/ORIGINAL-GATEWAY.md §1.12). Rule 1 "by official": the upstream's numbers, each side replaced by
 * max(local, upstream) only when it is missing or zero, or on abort (a cut stream's usage is partial or
 * absent). Unlike the original, a sound side is not recounted just because the other one is zero: our
 * tokenizer only approximates non-OpenAI models. Rule 2 "by system": max(local, upstream) per side.
 * The details (cache reads and writes, reasoning, audio, searches) are the upstream's: we can't know them
 * locally, and the price caps each at what is left of its total (billing/price.ts tokenLines).
 */
export function mergeUsage(upstream: BillableUsage | undefined, local: LocalCount, rule: 1 | 2, aborted: boolean): BillableUsage {
  const up = { prompt: Math.floor(clean(upstream?.prompt_tokens)), completion: Math.floor(clean(upstream?.completion_tokens)) };
  const own = { prompt: Math.floor(clean(local.prompt)), completion: Math.floor(clean(local.completion)) };
  const side = (k: keyof LocalCount) => (rule === 2 || aborted || up[k] === 0 ? Math.max(up[k], own[k]) : up[k]);
  const prompt_tokens = side('prompt');
  const completion_tokens = side('completion');
  return { ...upstream, prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens };
}
