/** RFC 3339 UTC to the second with a `Z` suffix: `2026-12-01T00:00:00Z` (CONTRACT 3). */
export function toSecondTimestamp(at: Date): string {
  const iso = at.toISOString();
  // `YYYY-MM-DDTHH:MM:SS.sssZ` (years 0-9999, all this service stores) loses its milliseconds
  // by slicing; the extended years of toISOString (`+YYYYYY-…`) by the pattern.
  return iso.length === 24 ? `${iso.slice(0, 19)}Z` : iso.replace(/\.\d{3}Z$/, 'Z');
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * Parses a full RFC 3339 date-time with an explicit offset; anything else is `null`.
 * So is a time outside the years 0001-9999 in UTC, offset applied
 * (`9999-12-31T23:59:59-23:59` is in the year 10000): it could not be written
 * back as RFC 3339, and SQLite and PostgreSQL do not store it faithfully.
 */
export function parseRfc3339(text: string): Date | null {
  const m = RFC3339.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return null;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day < 1 || day > daysInMonth) return null;
  const at = new Date(text);
  if (Number.isNaN(at.getTime())) return null;
  const utcYear = at.getUTCFullYear();
  return utcYear < 1 || utcYear > 9999 ? null : at;
}
