import { describe, expect, it } from 'vitest';
import { AppError } from '../http/errors';
import { allowList, isPublicAddress, resolvePublicHost } from './public-host';

const keyOf = (p: Promise<unknown>) => p.then(() => 'resolved', (err: unknown) => (err instanceof AppError ? err.key : String(err)));

describe('public hosts', () => {
  it('tells public unicast addresses from every local, private and reserved kind', () => {
    for (const ip of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808']) expect(isPublicAddress(ip), ip).toBe(true);
    for (const ip of [
      '127.0.0.1', '127.255.255.254', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.0.1', '100.64.0.1', '169.254.169.254', '0.0.0.0', '224.0.0.251',
      '255.255.255.255', '198.18.0.1', '::', '::1', 'fc00::1', 'fd12:3456::1', 'fe80::1', 'fe80::1%eth0', 'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1',
      '::ffff:10.0.0.1', '64:ff9b::a00:1', '::127.0.0.1', '2002:7f00:1::1', 'not an ip', '',
    ]) {
      expect(isPublicAddress(ip), ip).toBe(false);
    }
  });

  it('lets the configured private addresses and ranges through, nothing else', () => {
    const allow = allowList(['10.8.0.0/16', '127.0.0.2', 'fd00::/8']);
    for (const ip of ['10.8.1.2', '127.0.0.2', 'fd00::25', '::ffff:10.8.0.9']) expect(isPublicAddress(ip, allow), ip).toBe(true);
    for (const ip of ['10.9.0.1', '127.0.0.1', 'fc00::1']) expect(isPublicAddress(ip, allow), ip).toBe(false);
  });

  it('resolves a name, checks every address and returns the one to connect to', async () => {
    await expect(resolvePublicHost('8.8.8.8')).resolves.toEqual({ address: '8.8.8.8', family: 4 });
    await expect(resolvePublicHost('[2606:4700:4700::1111]')).resolves.toEqual({ address: '2606:4700:4700::1111', family: 6 });
    expect(await keyOf(resolvePublicHost('localhost'))).toBe('host.not_public');
    expect(await keyOf(resolvePublicHost('127.0.0.1'))).toBe('host.not_public');
    // Numeric spellings the resolver turns into loopback.
    expect(await keyOf(resolvePublicHost('2130706433'))).toBe('host.not_public');
    expect(await keyOf(resolvePublicHost('no-such-host.invalid'))).toBe('host.unresolved');
    expect(await keyOf(resolvePublicHost(''))).toBe('host.unresolved');
    await expect(resolvePublicHost('127.0.0.1', ['127.0.0.1'])).resolves.toEqual({ address: '127.0.0.1', family: 4 });
  });
});
