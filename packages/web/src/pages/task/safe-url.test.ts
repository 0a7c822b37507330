import { describe, expect, it } from 'vitest';
import { httpUrl } from './safe-url';

describe('task media URLs', () => {
  it('keeps http and https URLs', () => {
    expect(httpUrl('https://cdn.example.com/a.mp4')).toBe('https://cdn.example.com/a.mp4');
    expect(httpUrl('http://127.0.0.1:9/v.mp3')).toBe('http://127.0.0.1:9/v.mp3');
  });

  it('refuses script, data and relative URLs', () => {
    expect(httpUrl('javascript:alert(1)')).toBeUndefined();
    expect(httpUrl('JaVaScRiPt:alert(1)')).toBeUndefined();
    expect(httpUrl('data:text/html,<script>1</script>')).toBeUndefined();
    expect(httpUrl('/relative/path.mp4')).toBeUndefined();
    expect(httpUrl('')).toBeUndefined();
  });
});
