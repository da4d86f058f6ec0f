import { type KeyContext, KeyContextRepository } from '@svc/domain';
import { type InMemoryApiKeyRepository } from './in-memory-api-key.repository';
import { type InMemoryUsageRepository } from './in-memory-usage.repository';
import { type InMemoryUserRepository } from './in-memory-user.repository';

/**
 * Validate's one read over the other in-memory adapters, for use-case tests
 * only. Like the SQL join, a key whose user is missing is not found.
 */
export class InMemoryKeyContextRepository extends KeyContextRepository {
  constructor(
    private readonly keys: InMemoryApiKeyRepository,
    private readonly users: InMemoryUserRepository,
    private readonly usage: InMemoryUsageRepository,
  ) {
    super();
  }

  async findByDigest(digest: string, periodKey: string): Promise<KeyContext | null> {
    const key = await this.keys.findByDigest(digest);
    const user = key ? await this.users.findById(key.userId) : null;
    if (!key || !user) return null;
    return { key, user, used: await this.usage.usedIn(key.licenseId, periodKey) };
  }
}
