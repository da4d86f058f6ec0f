import { type EventReport } from './analytics-event';
import { BATCH_LIMITS, acceptedInOrder, grantableUnits, isIdempotencyKey, occurredAtAccepted, reportedFieldsOf } from './field-events';

const report = (over: Partial<EventReport> = {}): EventReport => ({
  eventType: 'inference',
  modelName: 'motor_imagery_4class_v1',
  inferenceType: 'batch',
  durationMs: 12.5,
  success: true,
  errorMessage: null,
  metadata: { trials: 40, accuracy: 0.82 },
  ...over,
});

describe('idempotency keys', () => {
  it.each(['0192f1c4-7e1a-7cc3-8a5e-3f1b2c4d5e6f', 'a', 'A.b_c:d-9', 'x'.repeat(128)])('accepts %s', (key) => {
    expect(isIdempotencyKey(key)).toBe(true);
  });

  it.each(['', 'x'.repeat(129), 'has space', 'slash/no', 'é', 'tab\t', 42, null, undefined])('refuses %p', (key) => {
    expect(isIdempotencyKey(key)).toBe(false);
  });
});

describe('occurred_at', () => {
  const received = new Date('2026-11-28T12:00:00.000Z');
  const at = (ms: number) => new Date(received.getTime() + ms);
  const DAY = 86_400_000;
  const MINUTE = 60_000;

  it('takes 35 days back to 5 minutes ahead, both ends included', () => {
    expect(occurredAtAccepted(at(-35 * DAY), received)).toBe(true);
    expect(occurredAtAccepted(at(0), received)).toBe(true);
    expect(occurredAtAccepted(at(5 * MINUTE), received)).toBe(true);
  });

  it('refuses a millisecond beyond either end', () => {
    expect(occurredAtAccepted(at(-35 * DAY - 1), received)).toBe(false);
    expect(occurredAtAccepted(at(5 * MINUTE + 1), received)).toBe(false);
  });
});

describe('reportedFieldsOf: what a repeat must agree on', () => {
  const when = new Date('2026-11-27T08:00:00+02:00');

  it('is the same for the same event, whatever the order of its metadata keys or the offset its time was written in', () => {
    const first = reportedFieldsOf(report({ metadata: { a: 1, b: { y: 2, x: [1, { q: 1, p: 2 }] } } }), when);
    const again = reportedFieldsOf(report({ metadata: { b: { x: [1, { p: 2, q: 1 }], y: 2 }, a: 1 } }), new Date('2026-11-27T06:00:00Z'));
    expect(again).toBe(first);
  });

  it.each<[string, Partial<EventReport>]>([
    ['event type', { eventType: 'model_load' }],
    ['model', { modelName: 'p300_speller_v2' }],
    ['inference type', { inferenceType: 'streaming' }],
    ['duration', { durationMs: 12.6 }],
    ['outcome', { success: false }],
    ['error message', { errorMessage: 'boom' }],
    ['metadata', { metadata: { trials: 41, accuracy: 0.82 } }],
    ['metadata absent', { metadata: null }],
  ])('differs when the %s differs', (_, over) => {
    expect(reportedFieldsOf(report(over), when)).not.toBe(reportedFieldsOf(report(), when));
  });

  it('differs when the time differs, or one send gave a time and the other none', () => {
    expect(reportedFieldsOf(report(), new Date(when.getTime() + 1))).not.toBe(reportedFieldsOf(report(), when));
    expect(reportedFieldsOf(report(), null)).not.toBe(reportedFieldsOf(report(), when));
  });
});

describe('grantableUnits', () => {
  it('grants all while they fit, what is left after, nothing once used up, everything without a limit', () => {
    expect(grantableUnits(5, 0, 10)).toBe(5);
    expect(grantableUnits(5, 8, 10)).toBe(2);
    expect(grantableUnits(5, 10, 10)).toBe(0);
    expect(grantableUnits(5, 12, 10)).toBe(0);
    expect(grantableUnits(5, 1_000_000, null)).toBe(5);
  });
});

describe('acceptedInOrder: a batch judged in order at the quota boundary', () => {
  it('accepts costly events while units remain, then refuses them, and accepts free events throughout', () => {
    // inference, model_load, inference, error, inference, inference with 2 units left
    expect(acceptedInOrder([1, 0, 1, 0, 1, 1], 2)).toEqual([true, true, true, true, false, false]);
  });

  it('refuses every costly event with no units left, and accepts all with enough', () => {
    expect(acceptedInOrder([1, 1, 0], 0)).toEqual([false, false, true]);
    expect(acceptedInOrder([1, 1, 0], 5)).toEqual([true, true, true]);
  });

  it('a batch is at most 100 events in 1 MiB', () => {
    expect(BATCH_LIMITS).toEqual({ events: 100, bodyBytes: 1_048_576 });
  });
});
