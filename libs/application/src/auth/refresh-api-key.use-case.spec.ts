import { ApiKeyFormat, FixedClock, KeyRotationPolicy, type MonthlyLimitSetting, type LicenseType } from '@svc/domain';
import { Sha256SecretHasher } from '@svc/infrastructure/crypto/sha256-secret-hasher';
import { Ed25519LicenseSigner, newLicenseKeyPair } from '@svc/infrastructure/crypto/ed25519-license-signer';
import {
  InMemoryApiKeyRepository,
  InMemoryKeyContextRepository,
  InMemoryUsageRepository,
  InMemoryUserRepository,
  InMemoryAuditLog,
} from '../../../../test/in-memory';
import { DAY_MS, T0, makeApiKey, makeSecret, makeUser, shippedTierCatalog, revokeAlone } from '../../../../test/factories/domain.factory';
import { AuthenticateApiKey } from './authenticate-api-key.use-case';
import { type OfflineLicenses } from '../shared/license-snapshot';
import { offlineLicensesOver } from '../../../../test/factories/license-signers';
import { type LicenseSnapshot } from '../shared/license-snapshot';
import { RefreshApiKey } from './refresh-api-key.use-case';

const hasher = new Sha256SecretHasher(null);

/** The real signer over a fresh key: each answer carries its signed license. */
async function offlineLicenses(keys: InMemoryApiKeyRepository): Promise<OfflineLicenses> {
  return offlineLicensesOver(keys, await Ed25519LicenseSigner.create(newLicenseKeyPair().privateKey)).licenses;
}
const EXPIRES = new Date(T0.getTime() + 30 * DAY_MS);

describe(RefreshApiKey.name, () => {
  let keys: InMemoryApiKeyRepository;
  let usage: InMemoryUsageRepository;
  let clock: FixedClock;
  let users: InMemoryUserRepository;
  /** The key guard's check, then the use case, as a request runs them. */
  let refresh: { execute(presented: unknown): Promise<LicenseSnapshot> };

  beforeEach(async () => {
    keys = new InMemoryApiKeyRepository(new InMemoryAuditLog());
    usage = new InMemoryUsageRepository();
    users = new InMemoryUserRepository();
    clock = new FixedClock(T0);
    const authenticate = new AuthenticateApiKey(
      new ApiKeyFormat('svc'),
      hasher,
      keys,
      new InMemoryKeyContextRepository(keys, users, usage),
      clock,
    );
    const useCase = new RefreshApiKey(shippedTierCatalog(), clock, await offlineLicenses(keys), new KeyRotationPolicy());
    refresh = { execute: async (presented) => useCase.execute(await authenticate.withContext(authenticate.present(presented))) };
  });

  async function given(options: { licenseType?: LicenseType; monthlyLimit?: MonthlyLimitSetting; used?: number; expiresAt?: Date } = {}) {
    const secret = makeSecret();
    const user = makeUser();
    await users.insert(user);
    const key = makeApiKey({
      userId: user.id,
      digest: hasher.digest(secret),
      licenseType: options.licenseType ?? 'free',
      monthlyLimit: options.monthlyLimit ?? { source: 'tier' },
      expiresAt: options.expiresAt ?? EXPIRES,
    });
    await keys.insert(key);
    if (options.used) usage.consumeNow(key.id, '2026-03', options.used, null);
    return { secret, key };
  }

  it('answers the license, features, current quota and expiry', async () => {
    const { secret } = await given({ licenseType: 'commercial', used: 10 });

    const out = await refresh.execute(secret);

    expect(out.licenseType).toBe('commercial');
    expect(out.features).toContain('custom_models');
    expect(out.quota).toMatchObject({ monthlyLimit: 500000, used: 10, remaining: 499990 });
    expect(out.expiresAt).toEqual(EXPIRES);
  });

  it('still answers when the quota is used up, with 0 remaining and the reset', async () => {
    const { secret } = await given({ licenseType: 'free', used: 10000 });

    const out = await refresh.execute(secret);

    expect(out.quota.remaining).toBe(0);
    expect(out.quota.isExhausted).toBe(true);
    expect(out.quota.period.resetsAt).toEqual(new Date('2026-04-01T00:00:00Z'));
  });

  it('answers 0 remaining, never negative, when more than the limit was used', async () => {
    const { secret } = await given({ monthlyLimit: { source: 'override', limit: 5 }, used: 9 });
    await expect(refresh.execute(secret)).resolves.toMatchObject({ quota: { used: 9, remaining: 0, monthlyLimit: 5 } });
  });

  it('does not extend the expiry, and consumes nothing', async () => {
    const { secret, key } = await given({ used: 3 });
    clock.advance(10 * DAY_MS);

    await refresh.execute(secret);

    const stored = await keys.findById(key.id);
    expect(stored?.expiresAt).toEqual(EXPIRES);
    await expect(usage.usedIn(key.id, '2026-03')).resolves.toBe(3);
  });

  it('re-reads the key: a tier change shows at once', async () => {
    const { secret, key } = await given({ licenseType: 'free' });
    await keys.updateTerms(key.with({ licenseType: 'enterprise' }));

    const out = await refresh.execute(secret);

    expect(out.licenseType).toBe('enterprise');
    expect(out.quota.monthlyLimit).toBeNull();
    expect(out.quota.remaining).toBeNull();
  });

  it('refuses expired and revoked keys', async () => {
    const expired = await given({ expiresAt: T0 });
    const revoked = await given();
    await revokeAlone(keys, revoked.key.id, T0);

    await expect(refresh.execute(expired.secret)).rejects.toMatchObject({ code: 'KEY_EXPIRED' });
    await expect(refresh.execute(revoked.secret)).rejects.toMatchObject({ code: 'INVALID_KEY' });
  });
});
