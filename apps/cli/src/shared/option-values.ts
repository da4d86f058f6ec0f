import { InvalidRequestError, parseRfc3339 } from '@svc/domain';

/**
 * Turns the text of CLI options into the values the use cases take. A bad
 * value is an INVALID_REQUEST, as the same value in an admin API body is.
 */

/** `--monthly-limit`: an integer >= 0, `unlimited` (null) or `tier` (the tier's limit). */
export function monthlyLimitOption(text: string): number | null | 'tier' {
  const word = text.trim().toLowerCase();
  if (word === 'tier') return 'tier';
  if (word === 'unlimited' || word === 'null') return null;
  if (/^\d+$/.test(word) && Number.isSafeInteger(Number(word))) return Number(word);
  throw new InvalidRequestError('--monthly-limit must be an integer >= 0, "unlimited" or "tier"');
}

/** `--expires-at`: an RFC 3339 time with an explicit offset. */
export function expiresAtOption(text: string): Date {
  const at = parseRfc3339(text.trim());
  if (!at) throw new InvalidRequestError('--expires-at must be an RFC 3339 time such as 2027-01-01T00:00:00Z');
  return at;
}
