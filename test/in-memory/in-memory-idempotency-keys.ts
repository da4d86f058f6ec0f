import { type IdempotencyClaim, type IdempotencyHolder, IdempotencyKeys } from '@svc/domain';

/**
 * Idempotency keys in a map, for tests only: each claim is made within one
 * synchronous step, so no concurrent caller slips in between its check and
 * its write. Stores what was reported as given, where the SQL adapters keep
 * its digest.
 */
export class InMemoryIdempotencyKeys extends IdempotencyKeys {
  private readonly held = new Map<string, { eventId: string; reportedFields: string }>();

  async claim(licenseId: string, claims: readonly IdempotencyClaim[]): Promise<(IdempotencyHolder | null)[]> {
    return claims.map((claim) => {
      const at = slot(licenseId, claim.key);
      const holder = this.held.get(at);
      if (holder) return { eventId: holder.eventId, sameFields: holder.reportedFields === claim.reportedFields };
      this.held.set(at, { eventId: claim.eventId, reportedFields: claim.reportedFields });
      return null;
    });
  }

  /** The keys as they are, for the in-memory unit of work to put back when its work fails (a rolled-back claim). */
  snapshot(): () => void {
    const before = new Map(this.held);
    return () => {
      this.held.clear();
      for (const [at, holder] of before) this.held.set(at, holder);
    };
  }

  async release(licenseId: string, keys: readonly string[]): Promise<void> {
    for (const key of keys) this.held.delete(slot(licenseId, key));
  }
}

function slot(licenseId: string, key: string): string {
  return `${licenseId}\u0000${key}`;
}
