import { SYS_CONFIG_DEFAULTS } from '@fastgate/core/sys-config';
import { describe, expect, it } from 'vitest';
import { shieldMessage } from './shield';

describe('shieldMessage', () => {
  it('hides listed texts from users and resellers, never from admins, never not-shield texts', () => {
    const leak = 'Incorrect API key provided: sk-abc***xyz';
    expect(shieldMessage(SYS_CONFIG_DEFAULTS, 'user', leak, 't1')).toMatch(/contact the administrator \(trace id t1\)/);
    expect(shieldMessage(SYS_CONFIG_DEFAULTS, 'reseller', leak, 't1')).not.toContain('sk-abc');
    expect(shieldMessage(SYS_CONFIG_DEFAULTS, 'admin', leak, 't1')).toBe(leak);
    const ctx = "This model's maximum context length is 8192 tokens (context_length_exceeded); your api key is fine";
    expect(shieldMessage(SYS_CONFIG_DEFAULTS, 'user', ctx, 't1')).toBe(ctx);
    expect(shieldMessage({ ...SYS_CONFIG_DEFAULTS, user_shield_error: { open: false, errors: ['api key'] } }, 'user', leak, 't1')).toBe(leak);
    expect(shieldMessage(SYS_CONFIG_DEFAULTS, 'user', 'overloaded', 't1')).toBe('overloaded');
  });
});
