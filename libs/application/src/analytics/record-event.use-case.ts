import { Injectable } from '@nestjs/common';
import {
  type AnalyticsEvent,
  AnalyticsEventRepository,
  ApiKey,
  BillingPeriod,
  Clock,
  IdGenerator,
  type IdempotencyClaim,
  IdempotencyKeyReusedError,
  InvalidRequestError,
  Quota,
  QuotaExceededError,
  TierCatalog,
  occurredAtAccepted,
  reportedFieldsOf,
  mayRaiseQuotaNotices,
  quotaNoticesOf,
} from '@svc/domain';
import { UnitOfWork } from '../shared/unit-of-work';
import { OCCURRED_AT_OUT_OF_WINDOW, type SentEvent } from './record-events.use-case';

export interface RecordEventInput {
  /** The authenticated key (key errors were answered before this runs). */
  readonly key: ApiKey;
  /** What the caller sent, already checked at the edge (CONTRACT 9 and 22). */
  readonly sent: SentEvent;
}

export interface RecordEventOutput {
  readonly eventId: string;
  readonly quota: Quota;
  /** The quota units the event consumed (1 for an inference, else 0; 0 for a repeat). */
  readonly unitsConsumed: number;
  /** A repeat of an event stored before under the same idempotency key: nothing stored or consumed now (CONTRACT 22). */
  readonly duplicate: boolean;
}

/**
 * POST /v1/analytics/log: stores the event and consumes its
 * cost from the key's license (CONTRACT 16) in one atomic step. An `inference` past the limit is refused with
 * QUOTA_EXCEEDED and neither stored nor counted (CONTRACT 4 and 9). A consumption that crosses 80 % or 100 %
 * of the limit raises its quota notices (quotaNoticesOf), recorded in the webhook outbox in the same
 * transaction (UnitOfWork), each once per license and period (CONTRACT 20). A consumption that cannot
 * raise one (a free event, an unlimited key) needs no transaction of its own. An event named by an
 * idempotency key claims it in the same transaction (CONTRACT 22).
 */
@Injectable()
export class RecordEvent {
  constructor(
    private readonly events: AnalyticsEventRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly catalog: TierCatalog,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  async execute(input: RecordEventInput): Promise<RecordEventOutput> {
    const { report, occurredAt, idempotencyKey } = input.sent;
    const now = this.clock.now();
    if (occurredAt !== null && !occurredAtAccepted(occurredAt, now)) throw new InvalidRequestError(OCCURRED_AT_OUT_OF_WINDOW);
    const period = BillingPeriod.containing(now);
    const limit = input.key.monthlyLimitUnder(this.catalog);
    const eventId = this.ids.newId('evt');
    const cost = Quota.costOf(report.eventType);
    const event: AnalyticsEvent = {
      ...report,
      id: eventId,
      keyId: input.key.id,
      licenseId: input.key.licenseId,
      keyPrefix: input.key.props.displayPrefix,
      environment: input.key.props.environment,
      period: period.key,
      receivedAt: now,
      occurredAt: occurredAt ?? now,
      batched: false,
    };
    if (idempotencyKey !== null) {
      const claim = { key: idempotencyKey, eventId, reportedFields: reportedFieldsOf(report, occurredAt) };
      return this.named(event, claim, cost, limit, period);
    }
    const used = mayRaiseQuotaNotices(limit, cost)
      ? await this.unitOfWork.run(async ({ events, outbox }) => {
          const total = await events.appendConsuming(event, cost, limit);
          if (total === null) return null;
          for (const notice of quotaNoticesOf({ ...event, at: now }, limit, cost, total)) await outbox.recordOnce(notice);
          return total;
        })
      : await this.events.appendConsuming(event, cost, limit);
    if (used === null) throw new QuotaExceededError(period, now);
    return { eventId, quota: new Quota(limit, used, period), unitsConsumed: cost, duplicate: false };
  }

  /**
   * An event named by an idempotency key, in one unit of work: the key
   * claimed (waiting out another unit that claims it uncommitted), then the
   * event appended with its consumption as an unnamed one is, so that the
   * counter is held only for that one step. A refusal rolls the claim back
   * with it: its retry is judged anew. A key held already answers its
   * event, or IDEMPOTENCY_KEY_REUSED.
   */
  private async named(
    event: AnalyticsEvent,
    claim: IdempotencyClaim,
    cost: number,
    limit: number | null,
    period: BillingPeriod,
  ): Promise<RecordEventOutput> {
    const now = event.receivedAt;
    const outcome = await this.unitOfWork.run(async ({ events, usage, idempotencyKeys, outbox }) => {
      const [holder] = await idempotencyKeys.claim(event.licenseId, [claim], now);
      if (holder) return { holder, used: await usage.usedIn(event.licenseId, period.key) };
      const total = await events.appendConsuming(event, cost, limit);
      if (total === null) throw new QuotaExceededError(period, now);
      for (const notice of quotaNoticesOf({ ...event, at: now }, limit, cost, total)) await outbox.recordOnce(notice);
      return { holder: null, used: total };
    });
    const quota = new Quota(limit, outcome.used, period);
    if (outcome.holder === null) return { eventId: event.id, quota, unitsConsumed: cost, duplicate: false };
    if (!outcome.holder.sameFields) throw new IdempotencyKeyReusedError();
    return { eventId: outcome.holder.eventId, quota, unitsConsumed: 0, duplicate: true };
  }
}
