import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Whether a webhook may be sent to an IP address (CONTRACT 20): only a
 * global unicast one. Loopback, private (RFC 1918, IPv6 unique-local, which
 * holds AWS's fd00:ec2::254), link-local (169.254.169.254, the cloud
 * metadata address), carrier-grade NAT (Alibaba's 100.100.100.200),
 * unspecified, multicast, broadcast, documentation and the other reserved
 * ranges are refused, as is an IPv4-mapped IPv6 address of any of them
 * (`::ffff:0:0/96` is judged as the IPv4 address it carries). The ranges are
 * ipaddr.js's, and an IPv6 address must also lie in 2000::/3, the only block
 * IANA allocates as global unicast: ipaddr.js calls the rest of `::/8` (the
 * deprecated IPv4-compatible `::/96`, where `::7f00:1` is `::127.0.0.1`) and
 * the other reserved blocks `unicast`.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  if (parsed.range() !== 'unicast') return false;
  return parsed.kind() === 'ipv4' || (parsed as ipaddr.IPv6).match(GLOBAL_UNICAST_V6);
}

/** IANA's global unicast IPv6 block (RFC 4291 2.4; everything else in IPv6 is reserved, local or multicast). */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

/** A lookup or a connection refused because of where it would go. */
export class RefusedAddressError extends Error {
  readonly code = 'EWEBHOOKADDRESS';
  constructor(readonly host: string) {
    super(`${host} resolves to a loopback, private, link-local or reserved address`);
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * `lookup` for an HTTP agent: resolves as Node does, then refuses (before
 * any connection) when any address found is not public. Checked at connect
 * time, so a name that resolved to a public address when it was registered
 * and to a private one now is refused now.
 */
export function safeLookup(hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true } as { all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    if (addresses.length === 0 || addresses.some((a) => !isPublicAddress(a.address)))
      return callback(new RefusedAddressError(hostname), []);
    if (options.all) return callback(null, addresses);
    return callback(null, addresses[0].address, addresses[0].family);
  });
}

/** The addresses a host names: itself when it is an IP literal (no lookup is made for one), else what DNS answers. */
export async function addressesOf(host: string): Promise<string[]> {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (isIP(bare) !== 0) return [bare];
  return new Promise((resolve, reject) =>
    dnsLookup(bare, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses.map((a) => a.address)))),
  );
}
