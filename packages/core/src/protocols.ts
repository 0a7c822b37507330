// Which client protocols a model can serve, and how (issue 12's capability matrix). The gateway speaks
// four protocols to clients (ingress) and four to upstreams; every request maps into the canonical chat
// model and out again (server providers/*), so any ingress reaches any upstream — natively when both
// speak the same protocol (the body goes as sent), converted otherwise. One table, read by the console's
// model detail and written out in docs/PROTOCOLS.md.
import { familyOfCorpCode } from './entities/corp';
import type { WireApi } from './entities/model-agent';

export const INGRESS_PROTOCOLS = ['chat', 'responses', 'messages', 'gemini'] as const;
export type IngressProtocol = (typeof INGRESS_PROTOCOLS)[number];

/** What an upstream speaks: its corp's family, and for OpenAI-family agents the wire API they are set to. */
export type UpstreamWire = 'chat' | 'responses' | 'anthropic' | 'gemini';

/** The endpoints of each ingress protocol, for the console and the docs. */
export const INGRESS_PATHS: Record<IngressProtocol, string> = {
  chat: '/v1/chat/completions',
  responses: '/v1/responses',
  messages: '/v1/messages',
  gemini: '/v1beta/models/{model}:generateContent',
};

/** The protocol an agent's upstream speaks: Azure and OpenAI-compatible hosts follow the agent's wire API. */
export function upstreamWireOf(corpCode: string, wireApi: WireApi = 'chat'): UpstreamWire {
  const family = familyOfCorpCode(corpCode);
  if (family === 'anthropic' || family === 'gemini') return family;
  return wireApi;
}

export const FEATURES = ['tools', 'vision', 'structured', 'reasoning', 'builtin_tools'] as const;
type Feature = (typeof FEATURES)[number];

export interface ProtocolSupport {
  native: boolean;
  features: Record<Feature, boolean>;
}

const NATIVE: Record<IngressProtocol, UpstreamWire> = { chat: 'chat', responses: 'responses', messages: 'anthropic', gemini: 'gemini' };

/**
 * How one ingress protocol is served by one upstream. Natively, everything the upstream does; converted,
 * what the canonical chat model carries: function tools (with streamed argument deltas), images,
 * structured output (JSON schema; on Claude as a forced tool), reasoning (effort and thinking budgets
 * in, reasoning text and thinking blocks out). Hosted tools (web search, file search, code interpreter…)
 * exist only natively (Responses' hosted tools, Anthropic's server tools, Gemini's built-in tools): a
 * converted request that asks for one is refused with a 400 (`builtin_tools`).
 */
function protocolSupport(ingress: IngressProtocol, upstream: UpstreamWire): ProtocolSupport {
  const native = NATIVE[ingress] === upstream;
  return {
    native,
    features: {
      tools: true,
      vision: true,
      structured: true,
      reasoning: true,
      builtin_tools: native,
    },
  };
}

/**
 * A model's support per ingress protocol over all its upstreams: any of them may serve a call, so a
 * feature holds only where every one has it, and the model is native only where every one is.
 */
export function modelProtocols(upstreams: readonly UpstreamWire[]): Record<IngressProtocol, ProtocolSupport | null> {
  const out = {} as Record<IngressProtocol, ProtocolSupport | null>;
  for (const ingress of INGRESS_PROTOCOLS) {
    const options = [...new Set(upstreams)].map((u) => protocolSupport(ingress, u));
    out[ingress] = options.length
      ? options.reduce((all, o) => ({ native: all.native && o.native, features: Object.fromEntries(FEATURES.map((f) => [f, all.features[f] && o.features[f]])) as ProtocolSupport['features'] }))
      : null;
  }
  return out;
}
