import { UsageRepository } from '@svc/domain';

/**
 * Usage counters per license and period, for tests only. `consumeNow` compares
 * and adds within one synchronous step, so no concurrent caller can slip
 * between the check and the write.
 */
export class InMemoryUsageRepository extends UsageRepository {
  private readonly counters = new Map<string, number>();

  async usedIn(licenseId: string, periodKey: string): Promise<number> {
    return this.usedNow(licenseId, periodKey);
  }

  /** CounterInTransaction, for the in-memory unit of work (whose steps are synchronous: nothing to hold against). */
  async hold(licenseId: string, periodKey: string): Promise<number> {
    return this.usedNow(licenseId, periodKey);
  }

  async add(licenseId: string, periodKey: string, units: number): Promise<void> {
    this.counters.set(slot(licenseId, periodKey), this.usedNow(licenseId, periodKey) + units);
  }

  /** `usedIn`, synchronously: for the other in-memory adapters that share these counters. */
  usedNow(keyId: string, periodKey: string): number {
    return this.counters.get(slot(keyId, periodKey)) ?? 0;
  }

  /**
   * Adds `cost` within `limit` (null: none) and answers the new total, or null
   * when refused, synchronously: the analytics events that share these
   * counters consume and store within one step (and tests seed usage with it).
   */
  consumeNow(keyId: string, periodKey: string, cost: number, limit: number | null): number | null {
    const at = slot(keyId, periodKey);
    const next = (this.counters.get(at) ?? 0) + cost;
    if (limit !== null && next > limit) return null;
    this.counters.set(at, next);
    return next;
  }

  /** Every key's counter in one period (key id, used), for the in-memory key directory. */
  countersIn(periodKey: string): Array<{ licenseId: string; used: number }> {
    const found: Array<{ licenseId: string; used: number }> = [];
    for (const [at, used] of this.counters) {
      const [licenseId, period] = at.split('\u0000');
      if (period === periodKey) found.push({ licenseId, used });
    }
    return found;
  }
}

function slot(keyId: string, periodKey: string): string {
  return `${keyId}\u0000${periodKey}`;
}
