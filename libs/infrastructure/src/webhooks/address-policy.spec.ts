import { RefusedAddressError, addressesOf, isPublicAddress, safeLookup } from './address-policy';

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
    // IPv4-compatible (::/96, deprecated) and the rest of ::/8: ipaddr.js calls them unicast
    '::7f00:1',
    '::127.0.0.1',
    '::a9fe:a9fe',
    '::a00:1',
    '::808:808',
    '::2',
    '::1:0:0:0',
    '0:ff::1',
    // reserved blocks outside 2000::/3
    '200::1',
    '4000::1',
    'e000::1',
    'not an address',
    '',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.216.34', '8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '2a00:1450:4001::1', '::ffff:8.8.8.8'])(
    'allows %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );

  it('takes an IP literal as it is and resolves a name (localhost is loopback)', async () => {
    await expect(addressesOf('10.1.2.3')).resolves.toEqual(['10.1.2.3']);
    await expect(addressesOf('[fd00:ec2::254]')).resolves.toEqual(['fd00:ec2::254']);
    const local = await addressesOf('localhost');
    expect(local.length).toBeGreaterThan(0);
    expect(local.every((a) => !isPublicAddress(a))).toBe(true);
  });
});

describe('safeLookup (the agent lookup, checked when connecting)', () => {
  const lookup = (host: string) =>
    new Promise<{ error: Error | null; address: unknown }>((resolve) =>
      safeLookup(host, {}, (error, address) => resolve({ error, address })),
    );

  it.each(['::7f00:1', '::a9fe:a9fe', '::1:0:0:0', '127.0.0.1', '::1'])('refuses what %s resolves to', async (host) => {
    const { error } = await lookup(host);
    expect(error).toBeInstanceOf(RefusedAddressError);
    expect(error?.message).toBe(`${host} resolves to a loopback, private, link-local or reserved address`);
  });

  it('answers a public address as Node resolves it', async () => {
    await expect(lookup('2606:4700:4700::1111')).resolves.toEqual({ error: null, address: '2606:4700:4700::1111' });
  });
});
