import { describe, expect, it } from 'vitest';
import { ipAllowed, parseIpList } from './ip-list';

const list = (text: string, wildcard = false) => {
  const r = parseIpList(text, { wildcard });
  if (!r.ok) throw new Error(`bad line ${r.line}`);
  return r.list;
};

describe('parseIpList', () => {
  it('normalizes addresses, ranges and CIDR blocks, skipping blanks and duplicates', () => {
    expect(list('\n 192.168.1.1 \r\n10.0.0.1 - 10.0.0.9\n10.1.2.3/8\n192.168.1.1\n')).toEqual(['192.168.1.1', '10.0.0.1-10.0.0.9', '10.0.0.0/8']);
    expect(list('2001:DB8:0:0:0:0:0:1\n::ffff:1.2.3.4\nfe80::/10\n::1-::ff')).toEqual(['2001:db8::1', '::ffff:1.2.3.4', 'fe80::/10', '::1-::ff']);
    expect(list('1:0:0:1:0:0:0:1')).toEqual(['1:0:0:1::1']);
    expect(list('')).toEqual([]);
    expect(parseIpList(['1.2.3.4', ''])).toEqual({ ok: true, list: ['1.2.3.4'] });
  });

  it('returns the first bad line', () => {
    for (const bad of ['1.2.3', '1.2.3.256', '01.2.3.4', 'a.b.c.d', '1.2.3.4/33', '1.2.3.4/x', '1.2.3.9-1.2.3.1', '1.2.3.4-::1', '1::2::3', '1:2:3:4:5:6:7:8:9', '1.2.3.4/8/1', 'localhost', '1.2.3.*']) {
      expect(parseIpList(`1.1.1.1\n${bad}\nnope`)).toEqual({ ok: false, line: bad });
    }
    expect(parseIpList('1.1.1.1\n2.2.2.2', { max: 1 })).toEqual({ ok: false, line: '2.2.2.2' });
  });

  it('accepts trailing wildcards only in user lists', () => {
    expect(list('*\n10.1.*.*\n10.2.3.*', true)).toEqual(['*', '10.1.*.*', '10.2.3.*']);
    for (const bad of ['10.*.1.*', '10.1.*', '300.*.*.*']) expect(parseIpList(bad, { wildcard: true }).ok).toBe(false);
  });
});

describe('ipAllowed', () => {
  it('lets everyone in with empty lists', () => {
    expect(ipAllowed('8.8.8.8')).toBe(true);
    expect(ipAllowed('garbage')).toBe(true);
  });

  it('refuses blacklist hits before looking at the whitelist', () => {
    const black = list('10.0.0.0/8\n192.168.1.5-192.168.1.9\n2001:db8::/32');
    expect(ipAllowed('10.200.3.4', [], black)).toBe(false);
    expect(ipAllowed('192.168.1.7', [], black)).toBe(false);
    expect(ipAllowed('192.168.1.10', [], black)).toBe(true);
    expect(ipAllowed('2001:db8::42', [], black)).toBe(false);
    expect(ipAllowed('::ffff:10.1.1.1', [], black)).toBe(false);
    expect(ipAllowed('10.1.1.1', ['10.1.1.1'], black)).toBe(false);
  });

  it('requires a whitelist hit when there is a whitelist', () => {
    const white = list('1.2.3.4\n172.16.0.0/12');
    expect(ipAllowed('1.2.3.4', white)).toBe(true);
    expect(ipAllowed('172.31.255.255', white)).toBe(true);
    expect(ipAllowed('172.32.0.0', white)).toBe(false);
    expect(ipAllowed('::1', white)).toBe(false);
    expect(ipAllowed('garbage', white)).toBe(false);
    expect(ipAllowed('9.9.9.9', ['0.0.0.0'])).toBe(true);
    expect(ipAllowed('9.9.9.9', list('9.9.*.*', true))).toBe(true);
    expect(ipAllowed('9.8.9.9', list('9.9.*.*', true))).toBe(false);
    expect(ipAllowed('::2', list('*', true))).toBe(true);
  });
});
