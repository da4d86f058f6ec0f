import { FixedClock, KeyNotFoundError } from '@svc/domain';
import {
  InMemoryApiKeyRepository,
  InMemoryUsageRepository,
  InMemoryUserRepository,
  InMemoryAuditLog,
  InMemoryDeviceRepository,
} from '../../../../test/in-memory';
import { T0, makeApiKey, makeUser, shippedTierCatalog } from '../../../../test/factories/domain.factory';
import { ShowApiKey } from './show-api-key.use-case';

describe(ShowApiKey.name, () => {
  let keys: InMemoryApiKeyRepository;
  let audit: InMemoryAuditLog;
  let users: InMemoryUserRepository;
  let usage: InMemoryUsageRepository;
  let clock: FixedClock;
  let show: ShowApiKey;

  beforeEach(() => {
    audit = new InMemoryAuditLog();
    keys = new InMemoryApiKeyRepository(audit);
    users = new InMemoryUserRepository();
    usage = new InMemoryUsageRepository();
    clock = new FixedClock(T0);
    show = new ShowApiKey(keys, users, usage, shippedTierCatalog(), clock, new InMemoryDeviceRepository(keys, audit));
  });

  it("answers the key's state, owner and this month's quota", async () => {
    const user = makeUser({ email: 'op@example.org' });
    await users.insert(user);
    const key = makeApiKey({ userId: user.id, licenseType: 'free', displayPrefix: 'svc_live_abc' });
    await keys.insert(key);
    usage.consumeNow(key.id, '2026-02', 500, null);
    usage.consumeNow(key.id, '2026-03', 40, null);

    const details = await show.execute(key.id);

    expect(details.status).toBe('active');
    expect(details.user).toEqual(user);
    expect(details.quota).toMatchObject({ monthlyLimit: 10000, used: 40, remaining: 9960 });
  });

  it('answers KeyNotFoundError for an unknown key', async () => {
    await expect(show.execute('key_missing')).rejects.toBeInstanceOf(KeyNotFoundError);
  });
});
