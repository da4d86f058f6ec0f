import { BillingPeriod } from '../quota/billing-period';
import { outboxRetention } from './outbox-retention';
import { KEY_EXPIRING_NOTICE_MS, WEBHOOK_EVENT_TYPES } from './webhook-event';

const DAY = 24 * 3600_000;
const at = (iso: string) => new Date(iso);

describe('the outbox retention (WEBHOOK_RETENTION_DAYS)', () => {
  it('ended deliveries and ordinary events go once they are older than the retention', () => {
    const now = at('2026-11-26T12:00:00Z');
    const retention = outboxRetention(now, 30);
    expect(retention.deliveriesEndedBefore).toEqual(at('2026-10-27T12:00:00Z'));
    for (const type of [
      'key.issued',
      'key.revoked',
      'key.rotated',
      'model.published',
      'model.deleted',
      'device.activated',
      'device.deactivated',
    ] as const) {
      expect(retention.eventsFannedOutBefore[type]).toEqual(at('2026-10-27T12:00:00Z'));
    }
    expect(Object.keys(retention.eventsFannedOutBefore).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    expect(outboxRetention(now, 1).deliveriesEndedBefore).toEqual(at('2026-11-25T12:00:00Z'));
  });

  it('a key.expiring marker is kept until its key has expired plus the retention', () => {
    const now = at('2026-11-26T12:00:00Z');
    const before = outboxRetention(now, 30).eventsFannedOutBefore['key.expiring'];
    expect(before).toEqual(new Date(now.getTime() - 30 * DAY - KEY_EXPIRING_NOTICE_MS));
    // the latest a marker that goes now can have been recorded; its key expired at most 7 days after that
    const latestExpiry = new Date(before.getTime() + KEY_EXPIRING_NOTICE_MS);
    expect(latestExpiry.getTime()).toBeLessThanOrEqual(now.getTime() - 30 * DAY);
  });

  it('a quota notice is kept while its period is current, and until the period ended plus the retention', () => {
    // a retention shorter than a month: the current month's notices stay, whatever day it is
    for (const day of ['2026-11-01T00:00:00Z', '2026-11-15T08:00:00Z', '2026-11-30T23:59:59Z']) {
      const now = at(day);
      const before = outboxRetention(now, 1).eventsFannedOutBefore['quota.warning'];
      expect(before.getTime()).toBeLessThanOrEqual(BillingPeriod.containing(now).startsAt.getTime());
      expect(outboxRetention(now, 1).eventsFannedOutBefore['quota.exhausted']).toEqual(before);
    }
    // October's notices go once a day (the retention) has passed after October ended, not before
    expect(outboxRetention(at('2026-11-01T23:59:59Z'), 1).eventsFannedOutBefore['quota.warning']).toEqual(at('2026-10-01T00:00:00Z'));
    expect(outboxRetention(at('2026-11-02T00:00:00Z'), 1).eventsFannedOutBefore['quota.warning']).toEqual(at('2026-11-01T00:00:00Z'));
    // with 30 days, a notice of 31 October is still kept on 30 November, gone on 1 December
    expect(outboxRetention(at('2026-11-30T12:00:00Z'), 30).eventsFannedOutBefore['quota.warning']).toEqual(at('2026-10-01T00:00:00Z'));
    expect(outboxRetention(at('2026-12-01T00:00:00Z'), 30).eventsFannedOutBefore['quota.warning']).toEqual(at('2026-11-01T00:00:00Z'));
  });

  it('a device.limit_reached notice is kept while its UTC day is current, and until that day ended plus the retention', () => {
    // the day containing now - retention is kept whole: a notice of it can still be recorded again only if it is gone
    expect(outboxRetention(at('2026-11-26T12:00:00Z'), 1).eventsFannedOutBefore['device.limit_reached']).toEqual(
      at('2026-11-25T00:00:00Z'),
    );
    expect(outboxRetention(at('2026-11-26T00:00:00Z'), 1).eventsFannedOutBefore['device.limit_reached']).toEqual(
      at('2026-11-25T00:00:00Z'),
    );
    expect(outboxRetention(at('2026-11-25T23:59:59Z'), 1).eventsFannedOutBefore['device.limit_reached']).toEqual(
      at('2026-11-24T00:00:00Z'),
    );
  });
});
