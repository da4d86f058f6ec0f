import { type EventReport, FixedClock, InvalidRequestError } from '@svc/domain';
import { InMemoryAnalyticsEventRepository, InMemoryUnitOfWork, InMemoryUsageRepository } from '../../../../test/in-memory';
import { SequentialIdGenerator, T0, makeApiKey, shippedTierCatalog } from '../../../../test/factories/domain.factory';
import { RecordEvent } from './record-event.use-case';
import { type EventResult, RecordEvents, type SentEvent } from './record-events.use-case';

const report = (eventType: EventReport['eventType'], over: Partial<EventReport> = {}): EventReport => ({
  eventType,
  modelName: 'motor_imagery_4class_v1',
  inferenceType: eventType === 'inference' ? 'batch' : null,
  durationMs: 12.5,
  success: true,
  errorMessage: null,
  metadata: null,
  ...over,
});
const event = (eventType: EventReport['eventType'], idempotencyKey: string | null = null, over: Partial<SentEvent> = {}): SentEvent => ({
  report: report(eventType),
  idempotencyKey,
  occurredAt: null,
  ...over,
});
const codeOf = (result: EventResult) => (result.accepted ? (result.duplicate ? 'duplicate' : 202) : result.error.code);
const HOUR = 3_600_000;

describe(RecordEvents.name, () => {
  let usage: InMemoryUsageRepository;
  let events: InMemoryAnalyticsEventRepository;
  let unitOfWork: InMemoryUnitOfWork;
  let recordEvents: RecordEvents;
  let recordEvent: RecordEvent;

  beforeEach(() => {
    usage = new InMemoryUsageRepository();
    events = new InMemoryAnalyticsEventRepository(usage);
    unitOfWork = new InMemoryUnitOfWork(events, usage);
    const [clock, ids] = [new FixedClock(T0), new SequentialIdGenerator()];
    recordEvents = new RecordEvents(unitOfWork, shippedTierCatalog(), clock, ids);
    recordEvent = new RecordEvent(events, unitOfWork, shippedTierCatalog(), clock, ids);
  });

  const limited = (limit: number) => makeApiKey({ monthlyLimit: { source: 'override', limit } });

  it('judges a batch in order at the quota boundary: later inferences 429, free events still accepted', async () => {
    const key = limited(3);
    await recordEvents.execute({ key, events: [event('inference')], batched: true });
    const out = await recordEvents.execute({
      key,
      batched: true,
      events: [event('inference'), event('model_load'), event('inference'), event('inference'), event('error')],
    });
    expect(out.results.map(codeOf)).toEqual([202, 202, 202, 'QUOTA_EXCEEDED', 202]);
    expect(out.quota.used).toBe(3);
    expect(out.unitsConsumed).toBe(2);
    expect(events.all()).toHaveLength(5);
    expect(events.all().every((e) => e.batched)).toBe(true);
  });

  it('answers a repeat of a stored event with its first id, storing and consuming nothing', async () => {
    const key = limited(10);
    const first = await recordEvents.execute({ key, events: [event('inference', 'k-1')], batched: true });
    const again = await recordEvents.execute({ key, events: [event('inference', 'k-1'), event('inference', 'k-2')], batched: true });
    expect(again.results[0]).toEqual({ accepted: true, eventId: (first.results[0] as { eventId: string }).eventId, duplicate: true });
    expect(again.results[1]).toMatchObject({ accepted: true, duplicate: false });
    expect(again.quota.used).toBe(2);
    expect(events.all()).toHaveLength(2);
  });

  it('refuses the same key with other fields (IDEMPOTENCY_KEY_REUSED), also within one batch', async () => {
    const key = limited(10);
    await recordEvents.execute({ key, events: [event('inference', 'k-1')], batched: true });
    const out = await recordEvents.execute({
      key,
      batched: true,
      events: [
        event('model_load', 'k-1'),
        event('inference', 'k-1', { occurredAt: new Date(T0.getTime() - HOUR) }),
        event('inference', 'k-2'),
        event('inference', 'k-2'),
        event('error', 'k-2'),
      ],
    });
    expect(out.results.map(codeOf)).toEqual([
      'IDEMPOTENCY_KEY_REUSED',
      'IDEMPOTENCY_KEY_REUSED',
      202,
      'duplicate',
      'IDEMPOTENCY_KEY_REUSED',
    ]);
    expect(out.quota.used).toBe(2);
  });

  it('gives a refused event its key back: its retry is judged anew', async () => {
    const key = limited(1);
    const out = await recordEvents.execute({ key, events: [event('inference', 'a'), event('inference', 'b')], batched: true });
    expect(out.results.map(codeOf)).toEqual([202, 'QUOTA_EXCEEDED']);
    usage.consumeNow(key.licenseId, T0.toISOString().slice(0, 7), -1, null); // the period's unit given back, as a new month would
    const retry = await recordEvents.execute({ key, events: [event('inference', 'b')], batched: true });
    expect(retry.results.map(codeOf)).toEqual([202]);
  });

  it('takes occurred_at from 35 days back to 5 minutes ahead, refusing the event alone outside it; quota is the current period', async () => {
    const key = limited(10);
    const out = await recordEvents.execute({
      key,
      batched: true,
      events: [
        event('inference', null, { occurredAt: new Date(T0.getTime() - 35 * 24 * HOUR) }),
        event('inference', null, { occurredAt: new Date(T0.getTime() - 35 * 24 * HOUR - 1) }),
        event('inference', null, { occurredAt: new Date(T0.getTime() + 5 * 60_000 + 1) }),
        event('inference'),
      ],
    });
    expect(out.results.map(codeOf)).toEqual([202, 'INVALID_REQUEST', 'INVALID_REQUEST', 202]);
    const [late, now] = events.all();
    expect(late.occurredAt).toEqual(new Date(T0.getTime() - 35 * 24 * HOUR));
    expect(late.period).toBe(T0.toISOString().slice(0, 7));
    expect(now.occurredAt).toEqual(T0);
  });

  it('keeps an event the edge refused in its place', async () => {
    const refused = new InvalidRequestError('model_name must be a string of at most 200 characters');
    const out = await recordEvents.execute({ key: limited(10), events: [event('inference'), refused, event('error')], batched: true });
    expect(out.results.map(codeOf)).toEqual([202, 'INVALID_REQUEST', 202]);
    expect(out.results[1]).toEqual({ accepted: false, error: refused });
  });

  it('raises each quota notice once however a batch crosses them', async () => {
    const key = limited(5);
    await recordEvents.execute({ key, batched: true, events: Array.from({ length: 7 }, () => event('inference')) });
    await recordEvents.execute({ key, batched: true, events: [event('inference')] });
    expect(unitOfWork.outbox.all().map((n) => n.type)).toEqual(['quota.warning', 'quota.exhausted']);
  });

  describe('the single endpoint with an idempotency key', () => {
    it('answers a repeat with the first id and duplicate, a reuse with 409, a refusal with its error', async () => {
      const key = limited(1);
      const first = await recordEvent.execute({ key, sent: event('inference', 'one') });
      expect(first).toMatchObject({ duplicate: false, unitsConsumed: 1 });
      await expect(recordEvent.execute({ key, sent: event('inference', 'one') })).resolves.toMatchObject({
        eventId: first.eventId,
        duplicate: true,
        unitsConsumed: 0,
      });
      await expect(recordEvent.execute({ key, sent: event('error', 'one') })).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
      await expect(recordEvent.execute({ key, sent: event('inference', 'two') })).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED' });
      expect(events.all()).toHaveLength(1);
      expect(events.all()[0].batched).toBe(false);
    });

    it('refuses an occurred_at outside the window without a key too', async () => {
      await expect(
        recordEvent.execute({ key: limited(1), sent: event('inference', null, { occurredAt: new Date(T0.getTime() + HOUR) }) }),
      ).rejects.toMatchObject({ code: 'INVALID_REQUEST', hint: expect.stringContaining('occurred_at') });
    });
  });
});
