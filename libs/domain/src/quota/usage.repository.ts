/** Usage counters, one per key and billing period (`YYYY-MM`). */
export abstract class UsageRepository {
  /** Units used by the key in the period; 0 when nothing was counted yet. */
  abstract usedIn(keyId: string, periodKey: string): Promise<number>;

  /**
   * Adds `cost` to the period's counter in one atomic conditional step, only
   * while the result stays within `limit` (`null`: no limit). Never read,
   * compare and write. Returns the new `used`, or `null` when refused.
   */
  abstract tryConsume(keyId: string, periodKey: string, cost: number, limit: number | null): Promise<number | null>;
}
