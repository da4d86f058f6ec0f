import { addressesOf, isPublicAddress } from './address-policy';

describe('isPublicAddress (CONTRACT 20: where a webhook may go)', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.0.0.1',
    '10.255.255.255',
    '172.16.0.1',
    '172.31.255.254',
    '192.168.1.1',
    '169.254.169.254',
    '169.254.0.1',
    '100.64.0.1',
    '100.100.100.200',
    '0.0.0.0',
    '255.255.255.255',
    '224.0.0.1',
    '192.0.2.10',
    '::1',
    '::',
    'fe80::1',
    'fd00:ec2::254',
    'fc00::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '2001:db8::1',
    'ff02::1',
    'not an address',
    '',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.216.34', '8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('allows %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it('takes an IP literal as it is and resolves a name (localhost is loopback)', async () => {
    await expect(addressesOf('10.1.2.3')).resolves.toEqual(['10.1.2.3']);
    await expect(addressesOf('[fd00:ec2::254]')).resolves.toEqual(['fd00:ec2::254']);
    const local = await addressesOf('localhost');
    expect(local.length).toBeGreaterThan(0);
    expect(local.every((a) => !isPublicAddress(a))).toBe(true);
  });
});
