import { KeyDirectory, type KeyListing, type KeySearch, type KeyUsage, type NearQuotaQuery, type TierStatusCount } from '@svc/application';
import { type ApiKey, type LicenseType, emailSearchForm } from '@svc/domain';
import { type InMemoryApiKeyRepository } from './in-memory-api-key.repository';
import { type InMemoryUsageRepository } from './in-memory-usage.repository';
import { type InMemoryUserRepository } from './in-memory-user.repository';

/** The key directory over the in-memory keys, users and counters, for tests only; the domain's rules say status and limit. */
export class InMemoryKeyDirectory extends KeyDirectory {
  constructor(
    private readonly keys: InMemoryApiKeyRepository,
    private readonly users: InMemoryUserRepository,
    private readonly usage: InMemoryUsageRepository,
  ) {
    super();
  }

  async search(query: KeySearch): Promise<KeyListing[]> {
    const after = query.after;
    return this.listings()
      .filter(({ email }) => query.email === undefined || emailSearchForm(email) === query.email)
      .filter(({ email }) => query.emailPrefix === undefined || emailSearchForm(email).startsWith(query.emailPrefix))
      .filter(({ key }) => query.prefix === undefined || key.props.displayPrefix.startsWith(query.prefix))
      .filter(({ key }) => query.userId === undefined || key.userId === query.userId)
      .filter(({ key }) => query.licenseType === undefined || key.licenseType === query.licenseType)
      .filter(({ key }) => query.status === undefined || key.statusAt(query.at) === query.status)
      .filter(({ key }) => after === undefined || newestFirst(positionOf(key), after) > 0)
      .sort((a, b) => newestFirst(positionOf(a.key), positionOf(b.key)))
      .slice(0, query.limit);
  }

  async countByTierAndStatus(at: Date): Promise<TierStatusCount[]> {
    const counts = new Map<string, TierStatusCount>();
    for (const key of this.keys.all()) {
      const status = key.statusAt(at);
      const slot = `${key.licenseType}/${status}`;
      counts.set(slot, { licenseType: key.licenseType, status, count: (counts.get(slot)?.count ?? 0) + 1 });
    }
    return [...counts.values()];
  }

  async nearQuota(query: NearQuotaQuery): Promise<KeyUsage[]> {
    // a license's usage shows on its current key (keys in their grace share the counter)
    const byLicense = new Map(
      this.listings()
        .filter((l) => l.key.props.rotatedTo === null)
        .map((l) => [l.key.props.licenseId, l]),
    );
    const found: KeyUsage[] = [];
    for (const { licenseId, used } of this.usage.countersIn(query.period)) {
      const listing = byLicense.get(licenseId);
      if (!listing || used <= 0) continue;
      const limit = limitOf(listing.key, query.tierLimits);
      if (limit === null || limit <= 0 || used * 100 < limit * query.atLeastPercent) continue;
      const a = query.after;
      if (a && !(used * a.monthlyLimit < a.used * limit || (used * a.monthlyLimit === a.used * limit && listing.key.id > a.keyId)))
        continue;
      found.push({ ...listing, used, monthlyLimit: limit });
    }
    return found
      .sort((a, b) => b.used / b.monthlyLimit - a.used / a.monthlyLimit || (a.key.id < b.key.id ? -1 : a.key.id > b.key.id ? 1 : 0))
      .slice(0, query.limit);
  }

  private listings(): KeyListing[] {
    const emails = new Map(this.users.all().map((u) => [u.id, u.email]));
    return this.keys.all().map((key) => ({ key, email: emails.get(key.userId) ?? '' }));
  }
}

function limitOf(key: ApiKey, tierLimits: Readonly<Record<LicenseType, number | null>>): number | null {
  const setting = key.props.monthlyLimit;
  return setting.source === 'override' ? setting.limit : tierLimits[key.licenseType];
}

function positionOf(key: ApiKey): { createdAt: Date; id: string } {
  return { createdAt: key.props.createdAt, id: key.id };
}

/** The list's order: creation time, then id, both descending. */
function newestFirst(a: { createdAt: Date; id: string }, b: { createdAt: Date; id: string }): number {
  return b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}
