import { BillingPeriod } from './billing-period';
import { Quota } from './quota';
import { QuotaExceededError } from './quota.errors';

const MARCH = BillingPeriod.containing(new Date('2026-03-15T12:00:00Z'));

describe(Quota.name, () => {
  it.each([
    [100, 0, 100, false],
    [100, 99, 1, false],
    [100, 100, 0, true],
    [100, 150, 0, true],
    [0, 0, 0, true],
  ])('with limit %i and %i used: %i remaining, exhausted %s', (limit, used, remaining, exhausted) => {
    const quota = new Quota(limit, used, MARCH);
    expect(quota.remaining).toBe(remaining);
    expect(quota.isExhausted).toBe(exhausted);
  });

  it('is never exhausted when unlimited, and its remaining is null while used still counts', () => {
    const quota = new Quota(null, 123_456_789, MARCH);
    expect(quota.remaining).toBeNull();
    expect(quota.isExhausted).toBe(false);
    expect(quota.used).toBe(123_456_789);
    expect(quota.monthlyLimit).toBeNull();
  });

  it('carries its period', () => {
    expect(new Quota(10, 1, MARCH).period.resetsAt).toEqual(new Date('2026-04-01T00:00:00Z'));
  });

  describe('costOf', () => {
    it.each([
      ['inference', 1],
      ['model_load', 0],
      ['error', 0],
      ['Inference', 0],
      ['', 0],
    ])('%j costs %i', (eventType, cost) => {
      expect(Quota.costOf(eventType)).toBe(cost);
    });
  });
});

describe(QuotaExceededError.name, () => {
  it('carries QUOTA_EXCEEDED, the reset and the whole seconds until it', () => {
    const error = new QuotaExceededError(MARCH, new Date('2026-03-31T23:58:59.500Z'));
    expect(error.code).toBe('QUOTA_EXCEEDED');
    expect(error.resetsAt).toEqual(new Date('2026-04-01T00:00:00Z'));
    expect(error.retryAfterSeconds).toBe(61);
    expect(error.description).toBe('Monthly quota exceeded');
    expect(error.hint).toBe('Monthly quota used up; it resets at 2026-04-01T00:00:00Z');
    expect(error.name).toBe('QuotaExceededError');
    expect(error).toBeInstanceOf(Error);
  });

  it('asks for at least one second at the very end of the period', () => {
    expect(new QuotaExceededError(MARCH, new Date('2026-03-31T23:59:59.999Z')).retryAfterSeconds).toBe(1);
  });
});
