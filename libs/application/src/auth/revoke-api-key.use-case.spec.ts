import { ApiKeyFormat, FixedClock, InvalidRequestError, KeyNotFoundError, MAX_REVOCATION_REASON_LENGTH } from '@svc/domain';
import { Sha256SecretHasher } from '@svc/infrastructure/crypto/sha256-secret-hasher';
import {
  InMemoryApiKeyRepository,
  InMemoryAuditLog,
  InMemoryKeyContextRepository,
  InMemoryUsageRepository,
  InMemoryUserRepository,
} from '../../../../test/in-memory';
import {
  DAY_MS,
  SequentialIdGenerator,
  T0,
  makeApiKey,
  makeSecret,
  makeUser,
  revokeAlone,
} from '../../../../test/factories/domain.factory';
import { KeyRevocation } from '../shared/key-revocation';
import { AuthenticateApiKey } from './authenticate-api-key.use-case';
import { RevokeApiKey } from './revoke-api-key.use-case';

const hasher = new Sha256SecretHasher(null);

describe(RevokeApiKey.name, () => {
  let keys: InMemoryApiKeyRepository;
  let audit: InMemoryAuditLog;
  let clock: FixedClock;
  let users: InMemoryUserRepository;
  /** The key guard's check for revocation (CONTRACT 5), then the use case, as a request runs them. */
  let revoke: { execute(input: { presentedKey: unknown; reason?: string | null }): Promise<void> };

  beforeEach(() => {
    audit = new InMemoryAuditLog();
    keys = new InMemoryApiKeyRepository(audit);
    users = new InMemoryUserRepository();
    clock = new FixedClock(T0);
    const contexts = new InMemoryKeyContextRepository(keys, users, new InMemoryUsageRepository());
    const authenticate = new AuthenticateApiKey(new ApiKeyFormat('svc'), hasher, keys, contexts, clock);
    const useCase = new RevokeApiKey(new KeyRevocation(keys, clock, new SequentialIdGenerator()));
    revoke = {
      execute: async ({ presentedKey, reason }) => {
        const key = await authenticate.execute(authenticate.present(presentedKey), 'revoke');
        await useCase.execute({ key, reason: reason ?? null });
      },
    };
  });

  async function given(overrides: Parameters<typeof makeApiKey>[0] = {}) {
    const secret = makeSecret();
    const user = makeUser();
    await users.insert(user);
    const key = makeApiKey({ userId: user.id, digest: hasher.digest(secret), ...overrides });
    await keys.insert(key);
    return { secret, key };
  }

  it('revokes the key for good and logs the reason, time and key id, never the key', async () => {
    const { secret, key } = await given();

    await revoke.execute({ presentedKey: secret, reason: 'leaked in a public notebook' });

    const stored = await keys.findById(key.id);
    expect(stored?.revokedAt).toEqual(T0);
    expect(stored?.statusAt(T0)).toBe('revoked');
    const entries = await audit.list({ limit: 10 });
    expect(entries).toEqual([
      {
        id: expect.any(String),
        at: T0,
        action: 'key.revoked',
        keyId: key.id,
        reason: 'leaked in a public notebook',
        details: { by: 'holder' },
        actor: { type: 'key', keyId: key.id },
      },
    ]);
    expect(JSON.stringify(entries)).not.toContain(secret);
  });

  it('stores a reason with any key pasted into it replaced, the revoked key or another', async () => {
    const { secret, key } = await given();
    const other = makeSecret();
    await revoke.execute({ presentedKey: secret, reason: `rotated: ${secret} leaked, ${other.toUpperCase()} too (ticket 42)` });
    const [entry] = await audit.list({ keyId: key.id, limit: 10 });
    expect(entry.reason).toBe('rotated: [REDACTED] leaked, [REDACTED] too (ticket 42)');
  });

  it('refuses a reason over its bound (INVALID_REQUEST), the key left active and nothing logged', async () => {
    const { secret, key } = await given();
    const reason = 'x'.repeat(MAX_REVOCATION_REASON_LENGTH + 1);

    await expect(revoke.execute({ presentedKey: secret, reason })).rejects.toBeInstanceOf(InvalidRequestError);

    expect((await keys.findById(key.id))?.revokedAt).toBeNull();
    await expect(audit.list({ limit: 10 })).resolves.toEqual([]);
  });

  it('revokes without a reason', async () => {
    const { secret, key } = await given();
    await revoke.execute({ presentedKey: secret, reason: undefined });
    expect((await audit.list({ keyId: key.id, limit: 10 }))[0].reason).toBeNull();
  });

  it('revokes an expired key', async () => {
    const { secret, key } = await given({ expiresAt: new Date(T0.getTime() - DAY_MS) });
    await revoke.execute({ presentedKey: secret, reason: null });
    expect((await keys.findById(key.id))?.revokedAt).toEqual(T0);
  });

  it('answers KeyNotFoundError for a well-formed key never issued', async () => {
    await expect(revoke.execute({ presentedKey: makeSecret(), reason: null })).rejects.toBeInstanceOf(KeyNotFoundError);
    await expect(audit.list({ limit: 10 })).resolves.toEqual([]);
  });

  it('answers KeyNotFoundError for a key already revoked, and changes nothing', async () => {
    const { secret, key } = await given();
    await revoke.execute({ presentedKey: secret, reason: 'first' });
    clock.advance(60_000);

    await expect(revoke.execute({ presentedKey: secret, reason: 'second' })).rejects.toMatchObject({
      code: 'KEY_NOT_FOUND',
      description: 'API key not found or already revoked',
    });

    expect((await keys.findById(key.id))?.revokedAt).toEqual(T0);
    expect((await audit.list({ limit: 10 })).map((e) => e.reason)).toEqual(['first']);
  });

  it('lets exactly one of 10 concurrent revocations succeed', async () => {
    const { secret, key } = await given();

    const results = await Promise.allSettled(Array.from({ length: 10 }, () => revoke.execute({ presentedKey: secret, reason: 'race' })));

    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused.map((r) => (r.reason as KeyNotFoundError).code)).toEqual(Array(9).fill('KEY_NOT_FOUND'));
    await expect(audit.list({ keyId: key.id, limit: 10 })).resolves.toHaveLength(1);
  });

  describe('key checks (CONTRACT 5)', () => {
    it.each([
      ['missing', () => undefined, 'MISSING_KEY'],
      ['malformed', () => 'svc_live_123', 'INVALID_FORMAT'],
      ['unknown', () => makeSecret(), 'KEY_NOT_FOUND'],
    ])('a %s key answers %s', async (_, presented, code) => {
      await expect(revoke.execute({ presentedKey: presented(), reason: null })).rejects.toMatchObject({ code: code });
    });

    it('an already revoked key answers KEY_NOT_FOUND', async () => {
      const { secret, key } = await given();
      await revokeAlone(keys, key.id, T0);
      await expect(revoke.execute({ presentedKey: secret, reason: 'x' })).rejects.toMatchObject({ code: 'KEY_NOT_FOUND' });
    });
  });
});
