/**
 * The opaque cursors of the admin lists (CONTRACT 17): where the page before
 * ended, as the last item's instant and id, for one list only. base64url of
 * a small JSON array; anything else is not a cursor (null).
 */
export type CursorList = 'keys' | 'audit' | 'deliveries';

export interface CursorPosition {
  readonly at: Date;
  readonly id: string;
}

export function encodeCursor(list: CursorList, position: CursorPosition): string {
  return Buffer.from(JSON.stringify([list, position.at.getTime(), position.id]), 'utf8').toString('base64url');
}

/** The position a cursor of `list` names, or null when the text is not one. */
export function decodeCursor(list: CursorList, cursor: string): CursorPosition | null {
  const parsed = parsedCursor(cursor);
  if (!Array.isArray(parsed) || parsed.length !== 3) return null;
  const [kind, ms, id] = parsed as unknown[];
  if (kind !== list || typeof ms !== 'number' || !Number.isSafeInteger(ms) || typeof id !== 'string' || id === '' || id.length > 40)
    return null;
  const at = new Date(ms);
  return Number.isNaN(at.getTime()) ? null : { at, id };
}

/** Where a page of keys near their quota ended (their order: share, then key id). */
export interface NearQuotaCursorPosition {
  readonly used: number;
  readonly monthlyLimit: number;
  readonly keyId: string;
}

export function encodeNearQuotaCursor(position: NearQuotaCursorPosition): string {
  return Buffer.from(JSON.stringify(['near_quota', position.used, position.monthlyLimit, position.keyId]), 'utf8').toString('base64url');
}

/** The position a near-quota cursor names, or null when the text is not one. */
export function decodeNearQuotaCursor(cursor: string): NearQuotaCursorPosition | null {
  const parsed = parsedCursor(cursor);
  if (!Array.isArray(parsed) || parsed.length !== 4) return null;
  const [kind, used, monthlyLimit, keyId] = parsed as unknown[];
  const count = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
  if (kind !== 'near_quota' || !count(used) || !count(monthlyLimit) || monthlyLimit === 0) return null;
  return typeof keyId === 'string' && keyId !== '' && keyId.length <= 40 ? { used, monthlyLimit, keyId } : null;
}

function parsedCursor(cursor: string): unknown {
  if (cursor.length > 200 || !/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  try {
    return JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
}
