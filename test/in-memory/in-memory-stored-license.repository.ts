import { type ApiKeyRepository, type LicenseToRefresh, type StoredLicense, StoredLicenseRepository } from '@svc/domain';

/** Each key's stored license in a Map, with the SQL adapter's compare-and-set; for use-case tests only. */
export class InMemoryStoredLicenseRepository extends StoredLicenseRepository {
  readonly byKey = new Map<string, StoredLicense>();

  /** `keys`: where the refresh job's reads find each license's key (the SQL join). */
  constructor(private readonly keys: ApiKeyRepository) {
    super();
  }

  async find(keyId: string): Promise<StoredLicense | null> {
    return this.byKey.get(keyId) ?? null;
  }

  async replace(keyId: string, expected: string | null, next: StoredLicense): Promise<boolean> {
    if ((this.byKey.get(keyId)?.token ?? null) !== expected) return false;
    this.byKey.set(keyId, next);
    return true;
  }

  async put(keyId: string, next: StoredLicense): Promise<void> {
    this.byKey.set(keyId, next);
  }

  async forget(keyId: string): Promise<void> {
    this.byKey.delete(keyId);
  }

  async due(at: Date, limit: number): Promise<LicenseToRefresh[]> {
    const due = [...this.byKey].filter(([, s]) => s.refreshAt.getTime() <= at.getTime());
    due.sort(([, a], [, b]) => a.refreshAt.getTime() - b.refreshAt.getTime());
    return this.withKeys(due.slice(0, limit));
  }

  async signedByOther(kid: string, limit: number): Promise<LicenseToRefresh[]> {
    return this.withKeys([...this.byKey].filter(([, s]) => s.kid !== kid).slice(0, limit));
  }

  /** In memory the keys cannot be listed: nothing is missing. */
  async missing(): Promise<LicenseToRefresh[]> {
    return [];
  }

  async claim(keyId: string, seen: Date, until: Date): Promise<boolean> {
    const stored = this.byKey.get(keyId);
    if (stored?.refreshAt.getTime() !== seen.getTime()) return false;
    this.byKey.set(keyId, { ...stored, refreshAt: until });
    return true;
  }

  private async withKeys(entries: Array<[string, StoredLicense]>): Promise<LicenseToRefresh[]> {
    const found: LicenseToRefresh[] = [];
    for (const [keyId, stored] of entries) {
      const key = await this.keys.findById(keyId);
      if (key) found.push({ key, stored });
    }
    return found;
  }
}
