import { describe, expect, it } from 'vitest';
import { formatTime, parseWireTime } from './time';

describe('wire times', () => {
  it('formats and parses in the configured zone', () => {
    const ms = Date.UTC(2026, 0, 1, 16, 30, 5);
    expect(formatTime(ms, 'Asia/Shanghai')).toBe('2026-01-02 00:30:05');
    expect(parseWireTime('2026-01-02 00:30:05', 'Asia/Shanghai')).toBe(ms);
    expect(parseWireTime('2026-01-02', 'Asia/Shanghai')).toBe(Date.UTC(2026, 0, 1, 16));
    expect(parseWireTime('2026-01-02', 'UTC', true)).toBe(Date.UTC(2026, 0, 3) - 1);
    expect(parseWireTime('tomorrow', 'UTC')).toBeUndefined();
    expect(formatTime(null, 'UTC')).toBe('');
  });
});
