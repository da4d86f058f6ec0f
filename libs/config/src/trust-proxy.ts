import { isIP } from 'node:net';

/**
 * Which proxies in front of the service are trusted to report the client's
 * address in `X-Forwarded-For` (TRUST_PROXY): `false` (none: the socket's
 * peer is the client), a hop count (the last N hops are proxies: the address N
 * entries from the right; given to Fastify as its trust function `hop < N`), or
 * the proxies' addresses and CIDR ranges, as Fastify's `trustProxy` takes them
 * (entries are walked from the right while they come from a listed address).
 */
export type TrustProxy = false | number | readonly string[];

/** The most proxies a hop count may name: more than any real chain, few enough to catch a typo. */
export const TRUST_PROXY_MAX_HOPS = 32;

/** proxy-addr's (and so Fastify's) own names for address ranges. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

const FORMS =
  'TRUST_PROXY must be a hop count (e.g. 1: one load balancer or ingress in front) or a comma-separated list of ' +
  'proxy addresses or CIDR ranges (e.g. 10.0.0.0/8,127.0.0.1; also loopback, linklocal, uniquelocal); false or 0 trusts none';

export const TRUST_PROXY_TRUE =
  'TRUST_PROXY=true trusts every hop, so any client can forge its address with its own X-Forwarded-For: ' +
  'set the number of proxies in front of the service instead (TRUST_PROXY=1 behind one load balancer or ingress, ' +
  '2 behind a load balancer and an ingress) or their addresses (e.g. TRUST_PROXY=10.0.0.0/8)';

/**
 * Reads TRUST_PROXY: unset, `false`, `no` or `0` trusts no proxy; a whole
 * number is a hop count; anything else is a list of addresses and ranges.
 * `true` (and `yes`) is refused: trusting every hop takes the leftmost
 * `X-Forwarded-For` entry, which the client writes. Returns the problem
 * line instead when the value is not one of these forms.
 */
export function trustProxyOf(text: string | undefined): { value: TrustProxy } | { problem: string } {
  if (text === undefined) return { value: false };
  const word = text.trim().toLowerCase();
  if (word === 'false' || word === 'no') return { value: false };
  if (word === 'true' || word === 'yes') return { problem: TRUST_PROXY_TRUE };
  if (/^\d+$/.test(word)) {
    const hops = Number(word);
    if (hops > TRUST_PROXY_MAX_HOPS) return { problem: `TRUST_PROXY as a hop count must be 0 to ${TRUST_PROXY_MAX_HOPS}` };
    return { value: hops === 0 ? false : hops };
  }
  const entries = text.split(',').map((entry) => entry.trim());
  if (entries.some((entry) => !isAddressOrRange(entry))) return { problem: FORMS };
  return { value: entries };
}

function isAddressOrRange(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const slash = entry.indexOf('/');
  const address = slash === -1 ? entry : entry.slice(0, slash);
  const family = isIP(address);
  if (family === 0) return false;
  if (slash === -1) return true;
  const bits = entry.slice(slash + 1);
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}
