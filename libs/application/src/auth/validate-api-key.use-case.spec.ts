import { ApiKeyFormat, FixedClock, KeyRotationPolicy, type MonthlyLimitSetting, QuotaExceededError, type LicenseType } from '@svc/domain';
import { Sha256SecretHasher } from '@svc/infrastructure/crypto/sha256-secret-hasher';
import { Ed25519LicenseSigner, newLicenseKeyPair } from '@svc/infrastructure/crypto/ed25519-license-signer';
import {
  InMemoryApiKeyRepository,
  InMemoryKeyContextRepository,
  InMemoryUsageRepository,
  InMemoryUserRepository,
  InMemoryAuditLog,
} from '../../../../test/in-memory';
import { DAY_MS, T0, makeApiKey, makeSecret, makeUser, shippedTierCatalog } from '../../../../test/factories/domain.factory';
import { AuthenticateApiKey } from './authenticate-api-key.use-case';
import { type OfflineLicenses } from '../shared/license-snapshot';
import { offlineLicensesOver } from '../../../../test/factories/license-signers';
import { ValidateApiKey, type ValidateApiKeyOutput } from './validate-api-key.use-case';

const hasher = new Sha256SecretHasher(null);

/** The real signer over a fresh key: each answer carries its signed license. */
async function offlineLicenses(keys: InMemoryApiKeyRepository): Promise<OfflineLicenses> {
  return offlineLicensesOver(keys, await Ed25519LicenseSigner.create(newLicenseKeyPair().privateKey)).licenses;
}
const MARCH = '2026-03';

describe(ValidateApiKey.name, () => {
  let keys: InMemoryApiKeyRepository;
  let users: InMemoryUserRepository;
  let usage: InMemoryUsageRepository;
  let clock: FixedClock;
  /** The key guard's check, then the use case, as a request runs them. */
  let validate: { execute(presented: unknown): Promise<ValidateApiKeyOutput> };

  beforeEach(async () => {
    keys = new InMemoryApiKeyRepository(new InMemoryAuditLog());
    users = new InMemoryUserRepository();
    usage = new InMemoryUsageRepository();
    clock = new FixedClock(T0);
    const catalog = shippedTierCatalog();
    const authenticate = new AuthenticateApiKey(
      new ApiKeyFormat('svc'),
      hasher,
      keys,
      new InMemoryKeyContextRepository(keys, users, usage),
      clock,
    );
    const useCase = new ValidateApiKey(catalog, clock, await offlineLicenses(keys), new KeyRotationPolicy());
    validate = { execute: async (presented) => useCase.execute(await authenticate.withContext(authenticate.present(presented))) };
  });

  /** Stores a user and a key of theirs with `used` units already counted this month; answers the plaintext. */
  async function given(
    options: { licenseType?: LicenseType; monthlyLimit?: MonthlyLimitSetting; used?: number; expiresAt?: Date; revokedAt?: Date } = {},
  ): Promise<{ secret: string; keyId: string; userId: string }> {
    const user = makeUser({ name: null, organization: 'Lab' });
    await users.insert(user);
    const secret = makeSecret();
    const key = makeApiKey({
      userId: user.id,
      digest: hasher.digest(secret),
      licenseType: options.licenseType ?? 'research',
      monthlyLimit: options.monthlyLimit ?? { source: 'tier' },
      expiresAt: options.expiresAt ?? new Date(T0.getTime() + 30 * DAY_MS),
      revokedAt: options.revokedAt ?? null,
    });
    await keys.insert(key);
    if (options.used) usage.consumeNow(key.id, MARCH, options.used, null);
    return { secret, keyId: key.id, userId: user.id };
  }

  it('answers the user, license, features, quota and expiry of an active key', async () => {
    const { secret, userId } = await given({ licenseType: 'research', used: 1200 });

    const out = await validate.execute(secret);

    expect(out.user).toMatchObject({ id: userId, email: 'ada@example.org', name: null, organization: 'Lab' });
    expect(out.licenseType).toBe('research');
    expect(out.features).toEqual(['batch_inference', 'streaming', 'training', 'model_calibration', 'model_export']);
    expect(out.quota.monthlyLimit).toBe(50000);
    expect(out.quota.used).toBe(1200);
    expect(out.quota.remaining).toBe(48800);
    expect(out.quota.period.resetsAt).toEqual(new Date('2026-04-01T00:00:00Z'));
    expect(out.expiresAt).toEqual(new Date(T0.getTime() + 30 * DAY_MS));
  });

  it('does not consume quota', async () => {
    const { secret, keyId } = await given({ used: 5 });
    await validate.execute(secret);
    await validate.execute(secret);
    await expect(usage.usedIn(keyId, MARCH)).resolves.toBe(5);
  });

  it('passes with one unit left', async () => {
    const { secret } = await given({ licenseType: 'free', used: 9999 });
    await expect(validate.execute(secret)).resolves.toMatchObject({ quota: { used: 9999, monthlyLimit: 10000 } });
  });

  describe('quota used up', () => {
    it('throws QuotaExceededError with the reset and the seconds until it', async () => {
      const { secret } = await given({ licenseType: 'free', used: 10000 });

      const attempt = validate.execute(secret);

      await expect(attempt).rejects.toBeInstanceOf(QuotaExceededError);
      await expect(attempt).rejects.toMatchObject({
        code: 'QUOTA_EXCEEDED',
        resetsAt: new Date('2026-04-01T00:00:00Z'),
        retryAfterSeconds: 16.5 * 86400,
      });
    });

    it('rounds Retry-After up and keeps it at least 1 at the end of the month', async () => {
      const { secret } = await given({ licenseType: 'free', used: 10000 });
      clock.set(new Date('2026-03-31T23:59:59.250Z'));
      await expect(validate.execute(secret)).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED', retryAfterSeconds: 1 });
    });

    it('counts again from 0 in the next month', async () => {
      const { secret } = await given({ licenseType: 'free', used: 10000 });
      clock.set(new Date('2026-04-01T00:00:00.000Z'));
      await expect(validate.execute(secret)).resolves.toMatchObject({ quota: { used: 0, remaining: 10000 } });
    });

    it('throws when more than the limit was used (limit lowered later)', async () => {
      const { secret } = await given({ monthlyLimit: { source: 'override', limit: 3 }, used: 8 });
      await expect(validate.execute(secret)).rejects.toBeInstanceOf(QuotaExceededError);
    });

    it('lets key errors win over the quota', async () => {
      const expired = await given({ licenseType: 'free', used: 10000, expiresAt: T0 });
      const revoked = await given({ licenseType: 'free', used: 10000, revokedAt: T0 });
      await expect(validate.execute(expired.secret)).rejects.toMatchObject({ code: 'KEY_EXPIRED' });
      await expect(validate.execute(revoked.secret)).rejects.toMatchObject({ code: 'INVALID_KEY' });
    });
  });

  describe('an override limit', () => {
    it('replaces the tier limit', async () => {
      const { secret } = await given({ licenseType: 'research', monthlyLimit: { source: 'override', limit: 5 }, used: 4 });
      await expect(validate.execute(secret)).resolves.toMatchObject({ quota: { monthlyLimit: 5, used: 4, remaining: 1 } });
    });

    it('is enforced like the tier limit', async () => {
      const { secret } = await given({ licenseType: 'research', monthlyLimit: { source: 'override', limit: 5 }, used: 5 });
      await expect(validate.execute(secret)).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED' });
    });

    it('of 0 refuses from the first call', async () => {
      const { secret } = await given({ monthlyLimit: { source: 'override', limit: 0 } });
      await expect(validate.execute(secret)).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED' });
    });

    it('of unlimited lifts the tier limit', async () => {
      const { secret } = await given({ licenseType: 'free', monthlyLimit: { source: 'override', limit: null }, used: 250000 });
      const out = await validate.execute(secret);
      expect(out.quota.monthlyLimit).toBeNull();
      expect(out.quota.remaining).toBeNull();
      expect(out.quota.used).toBe(250000);
      expect(out.features).toEqual(['batch_inference']);
    });
  });

  it('never refuses an unlimited enterprise key, and still reports what it used', async () => {
    const { secret } = await given({ licenseType: 'enterprise', used: 9_000_000 });
    const out = await validate.execute(secret);
    expect(out.quota.monthlyLimit).toBeNull();
    expect(out.quota.remaining).toBeNull();
    expect(out.quota.used).toBe(9_000_000);
    expect(out.quota.isExhausted).toBe(false);
  });

  it('reports the key errors of authentication', async () => {
    await expect(validate.execute(undefined)).rejects.toMatchObject({ code: 'MISSING_KEY' });
    await expect(validate.execute('svc_live_nothex')).rejects.toMatchObject({ code: 'INVALID_FORMAT' });
    await expect(validate.execute(makeSecret())).rejects.toMatchObject({ code: 'INVALID_KEY' });
  });
});
