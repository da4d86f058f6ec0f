/** What a consumption got: the units granted, and the period's units used after it. */
export interface Consumption {
  readonly granted: number;
  readonly used: number;
}

/**
 * Usage counters, one per license (the keys a rotation chains, CONTRACT 16)
 * and billing period (`YYYY-MM`), read here; consumed only with the events
 * that consume: one event (AnalyticsEventRepository.appendConsuming), or
 * many in a unit of work (consumeUpTo, then AnalyticsEventRepository.storeAll).
 */
export abstract class UsageRepository {
  /** Units used by the license (through any of its keys) in the period; 0 when nothing was counted yet. */
  abstract usedIn(licenseId: string, periodKey: string): Promise<number>;

  /**
   * In a unit of work: consumes as many of `wanted` units as `limit` (null:
   * unlimited) still grants (grantableUnits), holding the counter against
   * every other consumption until the transaction ends.
   */
  abstract consumeUpTo(licenseId: string, periodKey: string, wanted: number, limit: number | null): Promise<Consumption>;
}
