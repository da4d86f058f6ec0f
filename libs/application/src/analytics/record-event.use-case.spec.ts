import { FixedClock, QuotaExceededError, type EventReport } from '@svc/domain';
import { InMemoryAnalyticsEventRepository, InMemoryUnitOfWork, InMemoryUsageRepository } from '../../../../test/in-memory';
import { SequentialIdGenerator, T0, makeApiKey, shippedTierCatalog } from '../../../../test/factories/domain.factory';
import { RecordEvent } from './record-event.use-case';

const inference: EventReport = {
  eventType: 'inference',
  modelName: null,
  inferenceType: null,
  durationMs: null,
  success: true,
  errorMessage: null,
  metadata: null,
};

const sent = (report: EventReport) => ({ report, idempotencyKey: null, occurredAt: null });

describe(RecordEvent.name, () => {
  let unitOfWork: InMemoryUnitOfWork;
  let recordEvent: RecordEvent;

  beforeEach(() => {
    const usage = new InMemoryUsageRepository();
    const events = new InMemoryAnalyticsEventRepository(usage);
    unitOfWork = new InMemoryUnitOfWork(events, usage);
    const [clock, ids] = [new FixedClock(T0), new SequentialIdGenerator()];
    recordEvent = new RecordEvent(events, unitOfWork, shippedTierCatalog(), clock, ids);
  });

  it('records the quota notices the consumption crosses with it, each once per license and period (CONTRACT 20)', async () => {
    const key = makeApiKey({ monthlyLimit: { source: 'override', limit: 5 } });
    for (let i = 0; i < 5; i++) await recordEvent.execute({ key, sent: sent(inference) });
    await expect(recordEvent.execute({ key, sent: sent(inference) })).rejects.toBeInstanceOf(QuotaExceededError);
    const period = T0.toISOString().slice(0, 7);
    expect(unitOfWork.outbox.all()).toEqual([
      expect.objectContaining({
        id: `quota.warning:${key.licenseId}:${period}`,
        type: 'quota.warning',
        data: expect.objectContaining({ key_id: key.id, key_prefix: key.props.displayPrefix, limit: 5, threshold: 4 }),
      }),
      expect.objectContaining({ id: `quota.exhausted:${key.licenseId}:${period}`, type: 'quota.exhausted' }),
    ]);
  });

  it('a free event and an unlimited key raise none', async () => {
    const limited = makeApiKey({ monthlyLimit: { source: 'override', limit: 1 } });
    await recordEvent.execute({ key: limited, sent: sent({ ...inference, eventType: 'model_load' }) });
    const unlimited = makeApiKey({ monthlyLimit: { source: 'override', limit: null } });
    for (let i = 0; i < 3; i++) await recordEvent.execute({ key: unlimited, sent: sent(inference) });
    expect(unitOfWork.outbox.all()).toEqual([]);
  });
});
