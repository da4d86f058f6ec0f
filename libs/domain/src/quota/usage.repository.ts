/**
 * Usage counters, one per key and billing period (`YYYY-MM`), read here;
 * consumed only with the event that consumes (AnalyticsEventRepository.appendConsuming).
 */
export abstract class UsageRepository {
  /** Units used by the key in the period; 0 when nothing was counted yet. */
  abstract usedIn(keyId: string, periodKey: string): Promise<number>;
}
