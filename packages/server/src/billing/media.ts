// What a chat request carries besides text — images, input audio, web search — shared by the local counter
// (tokens.ts), the reservation (estimate.ts) and the per-call extras of multimodal prices (price.ts).
import type { SEARCH_CONTEXT_SIZES, VISION_MODES } from '@fastgate/core/entities/model-quota';
import type { ChatRequest } from '../providers/types';

export type VisionMode = (typeof VISION_MODES)[number];
export type SearchContextSize = (typeof SEARCH_CONTEXT_SIZES)[number];

/**
 * Tokens of one image part when counting locally (docs/ORIGINAL-GATEWAY.md §1.12 leaves images to the SDK; we can't fetch or decode
 * them offline). OpenAI's gpt-4o rule is 85 base + 170 per 512-px tile: `low` is always 85, a 1024×1024
 * image at high/auto is 765 (typical), and the largest possible (768×2048 after scaling, 8 tiles) is 1445.
 * Counting uses the typical figure, the reservation the largest.
 */
const IMAGE_TOKENS = { low: 85, typical: 765, max: 1445 } as const;

export function imageTokens(detail: VisionMode | undefined, bound: 'typical' | 'max'): number {
  return detail === 'low' ? IMAGE_TOKENS.low : IMAGE_TOKENS[bound];
}

/**
 * Input audio as tokens: gpt-4o audio is ~10 tokens per second; 16-bit 16 kHz WAV is 32 KB/s and compressed
 * formats are smaller per second but never below ~2 KB/s at speech quality, so one token per 200 decoded
 * bytes over-counts every common format. Only a fallback: upstreams report audio tokens.
 */
export function audioTokens(base64Length: number): number {
  return Math.ceil((Math.max(0, base64Length) * 3) / 4 / 200);
}

/** Per-call extras a multimodal price block charges on top of tokens (model-quota `vision_quotas`, `search_*`). */
export interface ChatExtras {
  /** One entry per image part sent, with the detail the client asked for (absent = the provider's `auto`). */
  images?: (VisionMode | undefined)[];
  /** Web searches run for this call; `context_size` when the client chose OpenAI's search_context_size. */
  search?: { calls: number; context_size?: SearchContextSize };
}

const SEARCH_TOOLS = new Set(['web_search', 'web_search_preview', 'google_search', 'google_search_retrieval']);

/**
 * Extras read from the request. Unlike the original (docs/ORIGINAL-GATEWAY.md §7.9: the last message only, one charge whatever the
 * image count) every image part of every message is charged: the provider processes the whole history again.
 */
export function chatExtras(request: Pick<ChatRequest, 'messages' | 'tools'> & Record<string, unknown>): ChatExtras {
  // Loops, not a generator of parts: every chat call is priced through here twice (hold and settle).
  const images: (VisionMode | undefined)[] = [];
  for (const m of request.messages) {
    if (!Array.isArray(m.content)) continue;
    for (const part of m.content) if (part.type === 'image_url') images.push(part.image_url.detail);
  }
  const extras: ChatExtras = images.length ? { images } : {};
  const options = request.web_search_options;
  if (options && typeof options === 'object') {
    const size = (options as { search_context_size?: unknown }).search_context_size;
    extras.search = { calls: 1, context_size: size === 'low' || size === 'high' ? size : 'medium' };
  } else if (hasSearchTool(request.tools)) {
    extras.search = { calls: 1 };
  }
  return extras;
}

function hasSearchTool(tools: unknown): boolean {
  if (!Array.isArray(tools)) return false;
  return tools.some((t) => {
    if (!t || typeof t !== 'object') return false;
    const o = t as Record<string, unknown>;
    return (typeof o.type === 'string' && SEARCH_TOOLS.has(o.type)) || 'googleSearch' in o || 'google_search' in o;
  });
}

/** Characters as billed for text to speech: Unicode code points (not UTF-16 units, not bytes). */
export function countCharacters(text: string | null | undefined): number {
  let n = 0;
  for (const _ of text ?? '') n++;
  return n;
}

