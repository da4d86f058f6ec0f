import { ApiKey, type ApiKeyProps, ApiKeyRepository } from '@svc/domain';
import type { ExpiringKey, KeyChangeRecords, KeyRotation, RecordsOfRevoked, Revocation } from '@svc/domain';
import { type InMemoryAuditLog } from './in-memory-audit-log';

/**
 * Keys in a map, for use-case tests only (never bound by InfrastructureModule).
 * Every method checks and changes state within one synchronous step, so
 * concurrent callers see the same all-or-nothing outcomes as the SQL adapters;
 * a key change's records go to `audit` in the same step, checked before
 * anything is changed (a duplicate entry id fails the change whole).
 */
export class InMemoryApiKeyRepository extends ApiKeyRepository {
  private readonly byId = new Map<string, ApiKeyProps>();

  constructor(private readonly audit: InMemoryAuditLog) {
    super();
  }

  async findByDigest(digest: string): Promise<ApiKey | null> {
    for (const props of this.byId.values()) {
      if (props.digest === digest) return toDomain(props);
    }
    return null;
  }

  /** Every key, in id order (the SQL adapters' walks read them so). */
  allInIdOrder(): ApiKey[] {
    return [...this.byId.keys()].sort().map((id) => toDomain(this.byId.get(id)!));
  }

  async findById(id: string): Promise<ApiKey | null> {
    const props = this.byId.get(id);
    return props ? toDomain(props) : null;
  }

  /** In memory there is no outbox (nothing delivers webhooks): a change's events are not kept, its audit entries are. */
  async insert(key: ApiKey, records?: KeyChangeRecords): Promise<void> {
    if (records) this.audit.refuseDuplicates(records.audit);
    this.insertNow(key);
    if (records) this.write([records]);
  }

  private insertNow(key: ApiKey): void {
    if (this.byId.has(key.id)) throw new Error(`duplicate api key id ${key.id}`);
    for (const props of this.byId.values()) {
      if (props.digest === key.props.digest) throw new Error('duplicate api key digest');
    }
    this.byId.set(key.id, copyOf(key.props));
  }

  async updateTerms(key: ApiKey): Promise<boolean> {
    const stored = this.byId.get(key.id);
    if (!stored || stored.revokedAt) return false;
    const { licenseType, expiresAt, monthlyLimit } = key.props;
    this.byId.set(key.id, copyOf({ ...stored, licenseType, expiresAt, monthlyLimit }));
    return true;
  }

  async revoke({ keyId, at, predecessorsInGrace }: Revocation, recordsOf: RecordsOfRevoked): Promise<boolean> {
    const stored = this.byId.get(keyId);
    if (!stored || stored.revokedAt) return false;
    const revoked = [keyId];
    if (!stored.rotatedTo) revoked.push(...predecessorsInGrace.filter((id) => this.byId.get(id)?.revokedAt === null));
    const records = revoked.map(recordsOf);
    this.audit.refuseDuplicates(records.flatMap((r) => r.audit));
    for (const id of revoked) this.byId.set(id, copyOf({ ...this.byId.get(id)!, revokedAt: at }));
    this.write(records);
    return true;
  }

  async rotate(
    { predecessor, successor, predecessorExpiresAt, predecessorRevokedAt }: KeyRotation,
    records: KeyChangeRecords,
  ): Promise<boolean> {
    const stored = this.byId.get(predecessor.id);
    if (!stored || stored.revokedAt || stored.rotatedTo) return false;
    this.audit.refuseDuplicates(records.audit);
    this.insertNow(successor);
    this.byId.set(
      predecessor.id,
      copyOf({ ...stored, rotatedTo: successor.id, expiresAt: predecessorExpiresAt, revokedAt: predecessorRevokedAt ?? stored.revokedAt }),
    );
    this.write([records]);
    return true;
  }

  /** The records of a change, once it is checked to succeed whole. */
  private write(records: readonly KeyChangeRecords[]): void {
    this.audit.appendNow(records.flatMap((r) => r.audit));
  }

  async findByLicense(licenseId: string): Promise<ApiKey[]> {
    return [...this.byId.values()]
      .filter((props) => props.licenseId === licenseId)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
      .map(toDomain);
  }

  /** The in-memory adapters keep no outbox, so no key has had its `key.expiring`: every key in the range that can still expire. */
  async findExpiringBetween(from: Date, until: Date, limit: number): Promise<ExpiringKey[]> {
    return [...this.byId.values()]
      .filter((p) => p.revokedAt === null && p.rotatedTo === null && p.expiresAt > from && p.expiresAt <= until)
      .sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime())
      .slice(0, Math.trunc(limit))
      .map((p) => ({ id: p.id, prefix: p.displayPrefix, licenseId: p.licenseId, expiresAt: p.expiresAt }));
  }

  /** Everything stored, for tests that check what was (and was not) persisted. */
  all(): ApiKey[] {
    return [...this.byId.values()].map(toDomain);
  }
}

function copyOf(props: ApiKeyProps): ApiKeyProps {
  return {
    ...props,
    expiresAt: new Date(props.expiresAt.getTime()),
    revokedAt: props.revokedAt ? new Date(props.revokedAt.getTime()) : null,
    createdAt: new Date(props.createdAt.getTime()),
    monthlyLimit: { ...props.monthlyLimit },
  };
}

function toDomain(props: ApiKeyProps): ApiKey {
  return new ApiKey(copyOf(props));
}
