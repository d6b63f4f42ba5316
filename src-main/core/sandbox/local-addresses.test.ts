import { describe, expect, it } from 'vitest';
import { isLocalAddress, resolveTarget } from './local-addresses';

describe('isLocalAddress', () => {
  it("counts the loopback, the unspecified address, link-local and this computer's interfaces as local", () => {
    const own = ['192.168.1.20', 'fd00::20'];
    for (const local of [
      '127.0.0.1',
      '127.8.9.10',
      '0.0.0.0',
      '169.254.169.254',
      '::1',
      '::',
      'fe80::1',
      '::ffff:127.0.0.1',
      '192.168.1.20',
      'FD00::20',
    ])
      expect(isLocalAddress(local, own), local).toBe(true);
    for (const remote of ['93.184.216.34', '192.168.1.21', '10.0.0.1', '2606:4700::1111', '::ffff:93.184.216.34'])
      expect(isLocalAddress(remote, own), remote).toBe(false);
  });

  it('judges the address a name resolves to, so a name for the loopback is local', async () => {
    expect(await resolveTarget('localhost')).toMatchObject({ local: true });
    expect(await resolveTarget('[::1]')).toEqual({ address: '::1', local: true });
  });
});
