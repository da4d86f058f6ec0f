/** Shared formatting: numbers in the viewer's locale, times in the viewer's zone (UTC on hover). */

const integer = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });
const percent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 2 });
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

export function formatCount(value: number | null | undefined): string {
  return value === null || value === undefined ? '–' : integer.format(value);
}

export function formatNumber(value: number | null | undefined): string {
  return value === null || value === undefined ? '–' : decimal.format(value);
}

/** 0.25 -> "25%" */
export function formatPercent(fraction: number): string {
  return percent.format(fraction);
}

export function formatLimit(limit: number | null): string {
  return limit === null ? 'unlimited' : integer.format(limit);
}

/** In the viewer's zone. */
export function formatTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}

/** The same instant in UTC, for the title attribute. */
export function formatUtc(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : `${date
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, '')} UTC`;
}

/** A calendar day (YYYY-MM-DD, a UTC day) in the viewer's words. */
export function formatDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : dateOnly.format(date);
}

/** YYYY-MM-DD of a UTC day. */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The first and the current day of this UTC month: the quota period so far. */
export function currentPeriod(now: Date = new Date()): { from: string; to: string } {
  return { from: utcDay(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))), to: utcDay(now) };
}

/** An <input type="datetime-local"> value (the viewer's zone) for an ISO instant, and back. */
export function toLocalInput(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60000);
  return local.toISOString().slice(0, 16);
}

export function fromLocalInput(value: string): string | null {
  const date = new Date(value);
  return value && !Number.isNaN(date.getTime()) ? date.toISOString() : null;
}

export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '–';
  if (bytes < 1000) return `${integer.format(bytes)} B`;
  if (bytes < 1e6) return `${decimal.format(bytes / 1e3)} kB`;
  if (bytes < 1e9) return `${decimal.format(bytes / 1e6)} MB`;
  return `${decimal.format(bytes / 1e9)} GB`;
}

/** Counts as sorted [name, count] pairs, largest first. */
export function sortedCounts(counts: Record<string, number> | undefined): Array<[string, number]> {
  return Object.entries(counts ?? {}).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}
