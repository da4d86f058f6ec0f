import { Injectable } from '@nestjs/common';
import {
  type AnalyticsEvent,
  ApiKey,
  BillingPeriod,
  Clock,
  DomainError,
  type EventReport,
  IdGenerator,
  type IdempotencyHolder,
  IdempotencyKeyReusedError,
  InvalidRequestError,
  OCCURRED_AT_WINDOW,
  Quota,
  QuotaExceededError,
  TierCatalog,
  acceptedInOrder,
  grantableUnits,
  occurredAtAccepted,
  quotaNoticesOf,
  reportedFieldsOf,
} from '@svc/domain';
import { UnitOfWork } from '../shared/unit-of-work';

/** One event as the SDK sent it, checked at the edge (CONTRACT 9 and 22). */
export interface SentEvent {
  readonly report: EventReport;
  /** The SDK's name for the event, or null. */
  readonly idempotencyKey: string | null;
  /** When the SDK says it occurred; null when it did not say (it occurred when received). */
  readonly occurredAt: Date | null;
}

/** What became of one event: stored (or found stored before, `duplicate`), or refused with its error. */
export type EventResult =
  | { readonly accepted: true; readonly eventId: string; readonly duplicate: boolean }
  | { readonly accepted: false; readonly error: DomainError };

export interface RecordEventsInput {
  /** The authenticated key (key errors were answered before this runs). */
  readonly key: ApiKey;
  /** The events in the order sent; an event the edge refused already is its error, and keeps its place. */
  readonly events: ReadonlyArray<SentEvent | DomainError>;
  /** Whether they came as a batch (POST /v1/analytics/batch), as the stored events record. */
  readonly batched: boolean;
}

export interface RecordEventsOutput {
  /** One result per event, in order. */
  readonly results: readonly EventResult[];
  /** The license's quota after the events. */
  readonly quota: Quota;
  /** The quota units the events consumed. */
  readonly unitsConsumed: number;
}

/** An event that passed every check before the transaction, with what the transaction needs of it. */
interface Candidate {
  readonly index: number;
  readonly event: AnalyticsEvent;
  readonly cost: number;
  readonly key: string | null;
  readonly reportedFields: string;
}

/** The refusal of an event whose occurred_at is outside the window (CONTRACT 22). */
export const OCCURRED_AT_OUT_OF_WINDOW =
  `occurred_at must be from ${OCCURRED_AT_WINDOW.pastDays} days before the request ` +
  `to ${OCCURRED_AT_WINDOW.futureMinutes} minutes after it`;

/**
 * Events from the field (CONTRACT 22), one (POST /v1/analytics/log with an
 * idempotency key) or up to a hundred (POST /v1/analytics/batch), recorded
 * in one unit of work:
 * 1. each idempotency key is claimed for the license (IdempotencyKeys): a key
 *    held already makes its event a repeat (the first event's id, nothing
 *    stored or consumed) or, with other fields, IDEMPOTENCY_KEY_REUSED; a
 *    key another unit claims uncommitted makes this one wait for it;
 * 2. when the new events cost anything, the license's counter is held (its
 *    other consuming units wait), else only read;
 * 3. the new events' cost is granted as far as the quota allows
 *    (grantableUnits) and the events are judged in order (acceptedInOrder):
 *    an `inference` past the quota is refused with QUOTA_EXCEEDED, its key
 *    given back so that its retry is judged anew;
 * 4. the units granted are added to the counter and the accepted events
 *    stored in one write, with the quota notices the consumption raised
 *    (once each, however many units crossed them).
 * A fault anywhere commits none of it. An event repeated within the batch
 * answers as its first occurrence did.
 */
@Injectable()
export class RecordEvents {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly catalog: TierCatalog,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  async execute(input: RecordEventsInput): Promise<RecordEventsOutput> {
    const { key, batched } = input;
    const now = this.clock.now();
    const period = BillingPeriod.containing(now);
    const limit = key.monthlyLimitUnder(this.catalog);
    const results: Array<EventResult | undefined> = new Array<EventResult | undefined>(input.events.length);
    /** Events whose key an earlier event of these carries: answered as that one is, or 409. */
    const repeats: Array<{ index: number; of: Candidate; reportedFields: string }> = [];
    const candidates: Candidate[] = [];
    const byKey = new Map<string, Candidate>();

    input.events.forEach((sent, index) => {
      if (sent instanceof DomainError) {
        results[index] = { accepted: false, error: sent };
        return;
      }
      if (sent.occurredAt !== null && !occurredAtAccepted(sent.occurredAt, now)) {
        results[index] = { accepted: false, error: new InvalidRequestError(OCCURRED_AT_OUT_OF_WINDOW) };
        return;
      }
      const reportedFields = reportedFieldsOf(sent.report, sent.occurredAt);
      const first = sent.idempotencyKey === null ? undefined : byKey.get(sent.idempotencyKey);
      if (first) {
        repeats.push({ index, of: first, reportedFields });
        return;
      }
      const candidate: Candidate = {
        index,
        cost: Quota.costOf(sent.report.eventType),
        key: sent.idempotencyKey,
        reportedFields,
        event: {
          ...sent.report,
          id: this.ids.newId('evt'),
          keyId: key.id,
          licenseId: key.licenseId,
          keyPrefix: key.props.displayPrefix,
          environment: key.props.environment,
          period: period.key,
          receivedAt: now,
          occurredAt: sent.occurredAt ?? now,
          batched,
        },
      };
      candidates.push(candidate);
      if (candidate.key !== null) byKey.set(candidate.key, candidate);
    });

    const { used, consumed } = await this.unitOfWork.run(async ({ events, usage, idempotencyKeys, outbox }) => {
      // A database may run this work again from the start: every verdict is made anew from what the ports answer.
      const keyed = candidates.filter((c): c is Candidate & { key: string } => c.key !== null);
      const holders = keyed.length === 0 ? [] : await idempotencyKeys.claim(key.licenseId, keyed.map(claimOf), now);
      const held = new Map<Candidate, IdempotencyHolder | null>(keyed.map((c, i) => [c, holders[i]]));
      const fresh: Candidate[] = [];
      for (const c of candidates) {
        const holder = held.get(c);
        if (!holder) fresh.push(c);
        else if (holder.sameFields) results[c.index] = { accepted: true, eventId: holder.eventId, duplicate: true };
        else results[c.index] = { accepted: false, error: new IdempotencyKeyReusedError() };
      }
      // only a consumption holds the counter: repeats and free events never wait on the license's other units
      const wanted = fresh.reduce((sum, c) => sum + c.cost, 0);
      const before = wanted > 0 ? await usage.hold(key.licenseId, period.key) : await usage.usedIn(key.licenseId, period.key);
      const granted = grantableUnits(wanted, before, limit);
      const verdicts = acceptedInOrder(
        fresh.map((c) => c.cost),
        granted,
      );
      const refused = fresh.filter((_, i) => !verdicts[i]);
      const stored = fresh.filter((_, i) => verdicts[i]);
      const refusedKeys = refused.flatMap((c) => (c.key === null ? [] : [c.key]));
      if (refusedKeys.length > 0) await idempotencyKeys.release(key.licenseId, refusedKeys);
      if (granted > 0) await usage.add(key.licenseId, period.key, granted);
      if (stored.length > 0) await events.storeAll(stored.map((c) => c.event));
      for (const c of stored) results[c.index] = { accepted: true, eventId: c.event.id, duplicate: false };
      for (const c of refused) results[c.index] = { accepted: false, error: new QuotaExceededError(period, now) };
      const crossing = stored.find((c) => c.cost > 0);
      if (crossing && granted > 0) {
        for (const notice of quotaNoticesOf({ ...crossing.event, at: now }, limit, granted, before + granted))
          await outbox.recordOnce(notice);
      }
      return { used: before + granted, consumed: granted };
    });

    for (const repeat of repeats) {
      const first = results[repeat.of.index];
      results[repeat.index] =
        repeat.reportedFields !== repeat.of.reportedFields
          ? { accepted: false, error: new IdempotencyKeyReusedError() }
          : first?.accepted
            ? { accepted: true, eventId: first.eventId, duplicate: true }
            : first;
    }
    return { results: results as EventResult[], quota: new Quota(limit, used, period), unitsConsumed: consumed };
  }
}

function claimOf(candidate: Candidate & { key: string }) {
  return { key: candidate.key, eventId: candidate.event.id, reportedFields: candidate.reportedFields };
}
