/**
 * Usage counters, one per license (the keys a rotation chains, CONTRACT 16)
 * and billing period (`YYYY-MM`), read here; consumed only with the events
 * that consume: one event (AnalyticsEventRepository.appendConsuming), or
 * many in a unit of work (its ports' consumeUpTo, then storeAll).
 */
export abstract class UsageRepository {
  /** Units used by the license (through any of its keys) in the period; 0 when nothing was counted yet. */
  abstract usedIn(licenseId: string, periodKey: string): Promise<number>;
}
