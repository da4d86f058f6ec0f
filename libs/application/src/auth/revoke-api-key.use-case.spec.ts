import { ApiKeyFormat, FixedClock, KeyNotFoundError, MAX_REVOCATION_REASON_LENGTH } from '@svc/domain';
import { Sha256SecretHasher } from '@svc/infrastructure/crypto/sha256-secret-hasher';
import { InMemoryApiKeyRepository, InMemoryAuditLog } from '@svc/infrastructure/persistence/in-memory';
import { DAY_MS, SequentialIdGenerator, T0, makeApiKey, makeSecret } from '../../../../test/factories/domain.factory';
import { KeyRevocation } from '../shared/key-revocation';
import { RevokeApiKey } from './revoke-api-key.use-case';

const hasher = new Sha256SecretHasher(null);

describe(RevokeApiKey.name, () => {
  let keys: InMemoryApiKeyRepository;
  let audit: InMemoryAuditLog;
  let clock: FixedClock;
  let revoke: RevokeApiKey;

  beforeEach(() => {
    keys = new InMemoryApiKeyRepository();
    audit = new InMemoryAuditLog();
    clock = new FixedClock(T0);
    revoke = new RevokeApiKey(
      new ApiKeyFormat('svc'),
      hasher,
      keys,
      new KeyRevocation(keys, audit, clock, new SequentialIdGenerator()),
    );
  });

  async function given(overrides: Parameters<typeof makeApiKey>[0] = {}) {
    const secret = makeSecret();
    const key = makeApiKey({ digest: hasher.digest(secret), ...overrides });
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

    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => revoke.execute({ presentedKey: secret, reason: 'race' })),
    );

    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused.map((r) => (r.reason as KeyNotFoundError).code)).toEqual(Array(9).fill('KEY_NOT_FOUND'));
    await expect(audit.list({ keyId: key.id, limit: 10 })).resolves.toHaveLength(1);
  });

  describe('key checks before the reason', () => {
    it.each([
      ['missing', () => undefined, 'MISSING_KEY'],
      ['malformed', () => 'svc_live_123', 'INVALID_FORMAT'],
      ['unknown', () => makeSecret(), 'KEY_NOT_FOUND'],
    ])('a %s key with a bad reason answers the key error', async (_, presented, code) => {
      await expect(revoke.execute({ presentedKey: presented(), reason: 42 })).rejects.toMatchObject({ code });
    });

    it('an already revoked key with a bad reason answers KEY_NOT_FOUND', async () => {
      const { secret, key } = await given();
      await keys.markRevoked(key.id, T0);
      await expect(revoke.execute({ presentedKey: secret, reason: { text: 'x' } })).rejects.toMatchObject({ code: 'KEY_NOT_FOUND' });
    });

    it.each([
      ['a number', 42],
      ['an object', { text: 'leak' }],
      ['a string one character too long', 'r'.repeat(MAX_REVOCATION_REASON_LENGTH + 1)],
    ])('an active key with %s as reason answers INVALID_REQUEST and stays active', async (_, reason) => {
      const { secret, key } = await given();

      await expect(revoke.execute({ presentedKey: secret, reason })).rejects.toMatchObject({
        code: 'INVALID_REQUEST',
        hint: `reason must be a string of at most ${MAX_REVOCATION_REASON_LENGTH} characters`,
      });

      expect((await keys.findById(key.id))?.revokedAt).toBeNull();
      await expect(audit.list({ limit: 10 })).resolves.toEqual([]);
    });

    it(`accepts a reason of exactly ${MAX_REVOCATION_REASON_LENGTH} characters`, async () => {
      const { secret, key } = await given();
      const reason = 'r'.repeat(MAX_REVOCATION_REASON_LENGTH);
      await revoke.execute({ presentedKey: secret, reason });
      expect((await audit.list({ keyId: key.id, limit: 1 }))[0].reason).toBe(reason);
    });
  });
});
