import type { ByteRangeRequest } from '@svc/domain';

const SINGLE_RANGE = /^bytes=(?:(\d{1,15})-(\d{1,15})?|-(\d{1,15}))$/;

/**
 * The single byte range a `Range` header asks for (RFC 9110 14.2), or
 * undefined to answer the whole file: no header, another unit, several
 * ranges, or a header that does not parse (a server may ignore those).
 */
export function byteRangeRequestOf(header: string | string[] | undefined): ByteRangeRequest | undefined {
  if (typeof header !== 'string') return undefined;
  const match = SINGLE_RANGE.exec(header.replace(/[ \t]/g, ''));
  if (match === null) return undefined;
  const [, start, end, suffix] = match;
  if (suffix !== undefined) return { suffixLength: Number(suffix) };
  return end === undefined ? { start: Number(start) } : { start: Number(start), end: Number(end) };
}
