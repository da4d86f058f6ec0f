import { Injectable } from '@nestjs/common';
import {
  AnalyticsEventRepository,
  AuditEntry,
  AuditLog,
  BillingPeriod,
  Clock,
  DAY_MS,
  DeviceRepository,
  KeyStatus,
  LICENSE_TYPES,
  LicenseType,
  TierCatalog,
  daysBetween,
  parseUtcDay,
  utcDayOf,
} from '@svc/domain';
import { KeyDirectory, KeyUsage } from '../keys/key-directory';
import { ListNearQuota, tierLimitsOf } from './list-near-quota.use-case';

export interface Overview {
  readonly keysByTier: Readonly<Record<LicenseType, number>>;
  readonly keysByStatus: Readonly<Record<KeyStatus, number>>;
  /** The last OVERVIEW_DAYS UTC days, today included, oldest first, 0 where none. */
  readonly eventsPerDay: ReadonlyArray<{ readonly date: string; readonly events: number }>;
  readonly nearQuota: readonly KeyUsage[];
  readonly recentAudit: readonly AuditEntry[];
  /** Devices of every license not deactivated (CONTRACT 23); a lapsed lease counts until it is marked. */
  readonly activeDevices: number;
}

/** The operators' first page (CONTRACT 17): keys by tier and status, traffic, keys near their quota, recent changes. */
@Injectable()
export class ShowOverview {
  static readonly DAYS = 30;
  static readonly NEAR_QUOTA_MAX = 20;
  static readonly RECENT_AUDIT = 10;

  constructor(
    private readonly directory: KeyDirectory,
    private readonly events: AnalyticsEventRepository,
    private readonly audit: AuditLog,
    private readonly catalog: TierCatalog,
    private readonly clock: Clock,
    private readonly devices: DeviceRepository,
  ) {}

  async execute(): Promise<Overview> {
    const now = this.clock.now();
    const today = parseUtcDay(utcDayOf(now)) as Date;
    const first = new Date(today.getTime() - (ShowOverview.DAYS - 1) * DAY_MS);
    const [counts, perDay, nearQuota, recentAudit, activeDevices] = await Promise.all([
      this.directory.countByTierAndStatus(now),
      this.events.eventsPerDay(first, new Date(today.getTime() + DAY_MS)),
      this.directory.nearQuota({
        period: BillingPeriod.containing(now).key,
        tierLimits: tierLimitsOf(this.catalog),
        atLeastPercent: ListNearQuota.NEAR_QUOTA_PERCENT,
        limit: ShowOverview.NEAR_QUOTA_MAX,
      }),
      this.audit.list({ limit: ShowOverview.RECENT_AUDIT }),
      this.devices.countNotDeactivated(),
    ]);
    const keysByTier = Object.fromEntries(LICENSE_TYPES.map((t) => [t, 0])) as Record<LicenseType, number>;
    const keysByStatus: Record<KeyStatus, number> = { active: 0, expired: 0, revoked: 0 };
    for (const c of counts) {
      keysByTier[c.licenseType] = (keysByTier[c.licenseType] ?? 0) + c.count;
      keysByStatus[c.status] += c.count;
    }
    const events = new Map(perDay.map((d) => [d.day, d.events]));
    return {
      keysByTier,
      keysByStatus,
      eventsPerDay: daysBetween(first, today).map((date) => ({ date, events: events.get(date) ?? 0 })),
      nearQuota,
      recentAudit,
      activeDevices,
    };
  }
}
