import { Injectable } from '@nestjs/common';
import {
  AnalyticsEventRepository,
  ApiKey,
  BillingPeriod,
  Clock,
  IdGenerator,
  Quota,
  QuotaExceededError,
  EventReport,
  TierCatalog,
} from '@svc/domain';

export interface RecordEventInput {
  /** The authenticated key (key errors were answered before this runs). */
  readonly key: ApiKey;
  /** What the caller reported, already checked at the edge (CONTRACT 9). */
  readonly report: EventReport;
}

export interface RecordEventOutput {
  readonly eventId: string;
  readonly quota: Quota;
  /** The quota units the event consumed (1 for an inference, else 0). */
  readonly unitsConsumed: number;
}

/**
 * POST /v1/analytics/log: stores the event and consumes its
 * cost from the key's license (CONTRACT 16) in one atomic step. An `inference` past the limit is refused with
 * QUOTA_EXCEEDED and neither stored nor counted (CONTRACT 4 and 9).
 */
@Injectable()
export class RecordEvent {
  constructor(
    private readonly events: AnalyticsEventRepository,
    private readonly catalog: TierCatalog,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  async execute(input: RecordEventInput): Promise<RecordEventOutput> {
    const { report } = input;
    const now = this.clock.now();
    const period = BillingPeriod.containing(now);
    const limit = input.key.monthlyLimitUnder(this.catalog);
    const eventId = this.ids.newId('evt');
    const cost = Quota.costOf(report.eventType);
    const used = await this.events.appendConsuming(
      {
        ...report,
        id: eventId,
        keyId: input.key.id,
        licenseId: input.key.licenseId,
        keyPrefix: input.key.props.displayPrefix,
        environment: input.key.props.environment,
        period: period.key,
        receivedAt: now,
      },
      cost,
      limit,
    );
    if (used === null) throw new QuotaExceededError(period, now);
    return { eventId, quota: new Quota(limit, used, period), unitsConsumed: cost };
  }
}
