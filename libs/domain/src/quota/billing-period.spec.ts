import fc from 'fast-check';
import { BillingPeriod } from './billing-period';

const utc = (text: string) => new Date(text);

describe(BillingPeriod.name, () => {
  describe('containing', () => {
    it.each([
      ['mid-month', '2026-03-15T12:00:00.000Z', '2026-03', '2026-03-01T00:00:00.000Z', '2026-04-01T00:00:00.000Z'],
      ['the first instant of a month', '2026-04-01T00:00:00.000Z', '2026-04', '2026-04-01T00:00:00.000Z', '2026-05-01T00:00:00.000Z'],
      ['the last millisecond of a month', '2026-03-31T23:59:59.999Z', '2026-03', '2026-03-01T00:00:00.000Z', '2026-04-01T00:00:00.000Z'],
      ['December', '2026-12-31T23:59:59.999Z', '2026-12', '2026-12-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'],
      ['New Year', '2027-01-01T00:00:00.000Z', '2027-01', '2027-01-01T00:00:00.000Z', '2027-02-01T00:00:00.000Z'],
      ['a leap day', '2028-02-29T12:00:00.000Z', '2028-02', '2028-02-01T00:00:00.000Z', '2028-03-01T00:00:00.000Z'],
      ['February of a common year', '2027-02-28T23:59:59.999Z', '2027-02', '2027-02-01T00:00:00.000Z', '2027-03-01T00:00:00.000Z'],
      ['February of a century year', '2100-02-28T00:00:00.000Z', '2100-02', '2100-02-01T00:00:00.000Z', '2100-03-01T00:00:00.000Z'],
      ['a 30-day month', '2026-04-30T23:59:59.999Z', '2026-04', '2026-04-01T00:00:00.000Z', '2026-05-01T00:00:00.000Z'],
    ])('places %s in its UTC month', (_, at, key, startsAt, resetsAt) => {
      const period = BillingPeriod.containing(utc(at));
      expect(period.key).toBe(key);
      expect(period.startsAt.toISOString()).toBe(startsAt);
      expect(period.resetsAt.toISOString()).toBe(resetsAt);
    });

    it('resets at 2028-03-01T00:00:00Z after the leap day 2028-02-29', () => {
      expect(BillingPeriod.containing(utc('2028-02-29T23:59:59.999Z')).resetsAt).toEqual(utc('2028-03-01T00:00:00Z'));
    });

    it('uses UTC, not the local time of an offset', () => {
      // 2026-03-31T22:30 at -02:00 is already April in UTC.
      expect(BillingPeriod.containing(utc('2026-03-31T22:30:00-02:00')).key).toBe('2026-04');
    });

    it('puts every instant in the period that starts at or before it and resets after it', () => {
      const instants = fc.date({ min: utc('1970-01-01T00:00:00Z'), max: utc('9999-12-31T23:59:59.999Z'), noInvalidDate: true });
      fc.assert(
        fc.property(instants, (at) => {
          const period = BillingPeriod.containing(at);
          return (
            period.startsAt.getTime() <= at.getTime() &&
            at.getTime() < period.resetsAt.getTime() &&
            BillingPeriod.containing(period.resetsAt).startsAt.getTime() === period.resetsAt.getTime() &&
            BillingPeriod.parse(period.key)?.resetsAt.getTime() === period.resetsAt.getTime()
          );
        }),
      );
    });
  });

  describe('parse', () => {
    it.each([
      ['2026-01', '2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z'],
      ['2026-12', '2026-12-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'],
      ['2028-02', '2028-02-01T00:00:00.000Z', '2028-03-01T00:00:00.000Z'],
    ])('reads %s', (key, startsAt, resetsAt) => {
      const period = BillingPeriod.parse(key);
      expect(period?.key).toBe(key);
      expect(period?.startsAt.toISOString()).toBe(startsAt);
      expect(period?.resetsAt.toISOString()).toBe(resetsAt);
    });

    it.each(['2026-00', '2026-13', '2026-1', '26-01', '2026/01', '2026-01-01', ' 2026-01', '2026-01 ', '', 'YYYY-MM'])(
      'refuses %j',
      (key) => {
        expect(BillingPeriod.parse(key)).toBeNull();
      },
    );
  });

  describe('secondsUntilReset', () => {
    const march = BillingPeriod.containing(utc('2026-03-15T12:00:00Z'));

    it('counts whole seconds to the reset', () => {
      expect(march.secondsUntilReset(utc('2026-03-31T23:59:00.000Z'))).toBe(60);
      expect(march.secondsUntilReset(utc('2026-03-15T12:00:00.000Z'))).toBe(16.5 * 86400);
    });

    it('rounds a part of a second up', () => {
      expect(march.secondsUntilReset(utc('2026-03-31T23:59:58.001Z'))).toBe(2);
      expect(march.secondsUntilReset(utc('2026-03-31T23:59:59.999Z'))).toBe(1);
    });

    it('is at least 1, even at or after the reset', () => {
      expect(march.secondsUntilReset(utc('2026-04-01T00:00:00.000Z'))).toBe(1);
      expect(march.secondsUntilReset(utc('2026-04-02T00:00:00.000Z'))).toBe(1);
    });

    it('counts from the leap day to 1 March', () => {
      const february = BillingPeriod.containing(utc('2028-02-29T00:00:00Z'));
      expect(february.secondsUntilReset(utc('2028-02-29T00:00:00Z'))).toBe(86400);
    });
  });
});
