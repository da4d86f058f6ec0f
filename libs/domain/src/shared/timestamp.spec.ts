import { parseRfc3339, toSecondTimestamp } from './timestamp';

describe(toSecondTimestamp.name, () => {
  it.each([
    ['2026-12-01T00:00:00.000Z', '2026-12-01T00:00:00Z'],
    ['2026-03-15T12:34:56.999Z', '2026-03-15T12:34:56Z'],
    ['2028-02-29T23:59:59.001Z', '2028-02-29T23:59:59Z'],
  ])('writes %s as %s: UTC, to the second, Z suffix', (at, text) => {
    expect(toSecondTimestamp(new Date(at))).toBe(text);
  });

  it('writes an instant given with an offset in UTC', () => {
    expect(toSecondTimestamp(new Date('2026-01-01T01:30:00+02:00'))).toBe('2025-12-31T23:30:00Z');
  });

  it.each([
    ['0001-01-01T00:00:00.999Z', '0001-01-01T00:00:00Z'],
    ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59Z'],
    ['+010000-01-01T00:00:00.000Z', '+010000-01-01T00:00:00Z'],
  ])('writes the edges of the calendar too: %s as %s', (at, text) => {
    expect(toSecondTimestamp(new Date(at))).toBe(text);
  });
});

describe(parseRfc3339.name, () => {
  it.each([
    ['2026-12-01T00:00:00Z', '2026-12-01T00:00:00.000Z'],
    ['2026-12-01T00:00:00.5Z', '2026-12-01T00:00:00.500Z'],
    ['2026-12-01T00:00:00.123456Z', '2026-12-01T00:00:00.123Z'],
    ['2026-12-01T02:00:00+02:00', '2026-12-01T00:00:00.000Z'],
    ['2026-11-30T19:00:00-05:00', '2026-12-01T00:00:00.000Z'],
    ['2026-12-01T00:00:00+00:00', '2026-12-01T00:00:00.000Z'],
    ['2028-02-29T12:00:00Z', '2028-02-29T12:00:00.000Z'],
    ['2026-12-01t00:00:00z', '2026-12-01T00:00:00.000Z'],
    ['2026-12-31T23:59:59Z', '2026-12-31T23:59:59.000Z'],
  ])('reads %s', (text, iso) => {
    expect(parseRfc3339(text)?.toISOString()).toBe(iso);
  });

  it.each([
    ['30 February', '2026-02-30T00:00:00Z'],
    ['29 February of a common year', '2027-02-29T00:00:00Z'],
    ['29 February of a century year', '2100-02-29T00:00:00Z'],
    ['31 April', '2026-04-31T00:00:00Z'],
    ['day 0', '2026-04-00T00:00:00Z'],
    ['month 0', '2026-00-10T00:00:00Z'],
    ['month 13', '2026-13-10T00:00:00Z'],
    ['hour 24', '2026-01-01T24:00:00Z'],
    ['minute 60', '2026-01-01T00:60:00Z'],
    ['second 60', '2026-01-01T00:00:60Z'],
    ['no offset', '2026-12-01T00:00:00'],
    ['no time', '2026-12-01'],
    ['no seconds', '2026-12-01T00:00Z'],
    ['a space for T', '2026-12-01 00:00:00Z'],
    ['an offset without a colon', '2026-12-01T00:00:00+0200'],
    ['an impossible offset', '2026-12-01T00:00:00+24:00'],
    ['surrounding spaces', ' 2026-12-01T00:00:00Z '],
    ['a trailing newline', '2026-12-01T00:00:00Z\n'],
    ['a date in words', 'December 1, 2026'],
    ['a Unix timestamp', '1796083200'],
    ['garbage', 'tomorrow'],
    ['an empty string', ''],
  ])('refuses %s', (_, text) => {
    expect(parseRfc3339(text)).toBeNull();
  });
});
