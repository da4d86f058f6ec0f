import { type ApiKey, type LicenseToRefresh, NO_DEVICE, type StoredLicense, StoredLicenseRepository } from '@svc/domain';
import { type InMemoryApiKeyRepository } from './in-memory-api-key.repository';

/** Each key's stored licenses in a Map (by key id and device), with the SQL adapter's compare-and-set; for tests only (it passes the same contract). */
export class InMemoryStoredLicenseRepository extends StoredLicenseRepository {
  /** By `<key id>/<device>`. */
  readonly byKey = new Map<string, StoredLicense>();

  /** `keys`: where the refresh job's reads find each license's key (the SQL join). */
  constructor(private readonly keys: InMemoryApiKeyRepository) {
    super();
  }

  async find(keyId: string, device = NO_DEVICE): Promise<StoredLicense | null> {
    return this.byKey.get(`${keyId}/${device}`) ?? null;
  }

  async replace(keyId: string, expected: string | null, next: StoredLicense, device = NO_DEVICE): Promise<boolean> {
    if ((this.byKey.get(`${keyId}/${device}`)?.token ?? null) !== expected) return false;
    this.byKey.set(`${keyId}/${device}`, next);
    return true;
  }

  async put(keyId: string, next: StoredLicense, device = NO_DEVICE): Promise<void> {
    this.byKey.set(`${keyId}/${device}`, next);
  }

  async forgetDevice(licenseId: string, device: string): Promise<void> {
    for (const key of await this.keys.findByLicense(licenseId)) this.byKey.delete(`${key.id}/${device}`);
  }

  async forget(keyId: string, device?: string): Promise<void> {
    for (const slot of [...this.byKey.keys()]) {
      if (slot === `${keyId}/${device}` || (device === undefined && slot.startsWith(`${keyId}/`))) this.byKey.delete(slot);
    }
  }

  async due(at: Date, limit: number): Promise<LicenseToRefresh[]> {
    const due = [...this.byKey].filter(([, s]) => s.refreshAt.getTime() <= at.getTime());
    due.sort(([, a], [, b]) => a.refreshAt.getTime() - b.refreshAt.getTime());
    return this.withKeys(due.slice(0, limit));
  }

  async signedByOther(kid: string, limit: number): Promise<LicenseToRefresh[]> {
    return this.withKeys([...this.byKey].filter(([, s]) => s.kid !== kid).slice(0, limit));
  }

  /** The keys of `keys` in id order (the SQL walk's), each with whether its slot naming no device is filled. */
  async keysAfter(afterKeyId: string, limit: number): Promise<Array<{ key: ApiKey; hasLicense: boolean }>> {
    return this.keys
      .allInIdOrder()
      .filter((key) => key.id > afterKeyId)
      .slice(0, limit)
      .map((key) => ({ key, hasLicense: this.byKey.has(`${key.id}/${NO_DEVICE}`) }));
  }

  async claim(keyId: string, device: string, seen: Date, until: Date): Promise<boolean> {
    const stored = this.byKey.get(`${keyId}/${device}`);
    if (stored?.refreshAt.getTime() !== seen.getTime()) return false;
    this.byKey.set(`${keyId}/${device}`, { ...stored, refreshAt: until });
    return true;
  }

  private async withKeys(entries: Array<[string, StoredLicense]>): Promise<LicenseToRefresh[]> {
    const found: LicenseToRefresh[] = [];
    for (const [slot, stored] of entries) {
      const [keyId, device] = slot.split('/');
      const key = await this.keys.findById(keyId);
      if (key) found.push({ key, device, stored });
    }
    return found;
  }
}
