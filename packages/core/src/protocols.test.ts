import { describe, expect, it } from 'vitest';
import { modelProtocols, upstreamWireOf } from './protocols';

describe('the protocol matrix', () => {
  it("names an upstream's protocol from its corp and the agent's wire API", () => {
    expect(upstreamWireOf('Anthropic', 'responses')).toBe('anthropic');
    expect(upstreamWireOf('google')).toBe('gemini');
    expect(upstreamWireOf('DeepSeek')).toBe('chat');
    expect(upstreamWireOf('Azure', 'responses')).toBe('responses');
  });

  it('is native only where every upstream speaks the protocol, and hosted tools only then', () => {
    const one = modelProtocols(['anthropic']);
    expect(one.messages).toMatchObject({ native: true, features: { builtin_tools: true, structured: true } });
    expect(one.chat).toMatchObject({ native: false, features: { tools: true, builtin_tools: false } });
    const mixed = modelProtocols(['responses', 'chat']);
    expect(mixed.responses).toMatchObject({ native: false, features: { builtin_tools: false } });
    expect(modelProtocols([]).gemini).toBeNull();
  });
});
