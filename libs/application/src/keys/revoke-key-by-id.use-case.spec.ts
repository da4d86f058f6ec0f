import { FixedClock, InvalidRequestError, KeyNotFoundError, KeyRevokedError, MAX_REVOCATION_REASON_LENGTH } from '@svc/domain';
import {
  InMemoryApiKeyRepository,
  InMemoryAuditLog,
  InMemoryUsageRepository,
  InMemoryUserRepository,
  InMemoryDeviceRepository,
} from '../../../../test/in-memory';
import { DAY_MS, SequentialIdGenerator, T0, makeApiKey, makeUser, shippedTierCatalog } from '../../../../test/factories/domain.factory';
import { KeyRevocation } from '../shared/key-revocation';
import { RevokeKeyById } from './revoke-key-by-id.use-case';
import { ShowApiKey } from './show-api-key.use-case';

/** The actor of the changes these tests make. */
const BY = { type: 'bootstrap' } as const;

describe(RevokeKeyById.name, () => {
  let keys: InMemoryApiKeyRepository;
  let users: InMemoryUserRepository;
  let audit: InMemoryAuditLog;
  let revoke: RevokeKeyById;

  beforeEach(() => {
    audit = new InMemoryAuditLog();
    keys = new InMemoryApiKeyRepository(audit);
    users = new InMemoryUserRepository();
    const clock = new FixedClock(T0);
    const show = new ShowApiKey(
      keys,
      users,
      new InMemoryUsageRepository(),
      shippedTierCatalog(),
      clock,
      new InMemoryDeviceRepository(keys, audit),
    );
    revoke = new RevokeKeyById(keys, new KeyRevocation(keys, clock, new SequentialIdGenerator()), show);
  });

  async function given(overrides: Parameters<typeof makeApiKey>[0] = {}) {
    const user = makeUser();
    await users.insert(user);
    const key = makeApiKey({ userId: user.id, ...overrides });
    await keys.insert(key);
    return key;
  }

  it('revokes the key, logs it as done by the operator, and answers its details', async () => {
    const key = await given();

    const details = await revoke.execute({ actor: BY, keyId: key.id, reason: 'contract ended' });

    expect(details.status).toBe('revoked');
    expect(details.key.revokedAt).toEqual(T0);
    expect((await keys.findById(key.id))?.revokedAt).toEqual(T0);
    await expect(audit.list({ keyId: key.id, limit: 10 })).resolves.toMatchObject([
      { action: 'key.revoked', reason: 'contract ended', details: { by: 'operator' } },
    ]);
  });

  it('refuses a reason over its bound (INVALID_REQUEST) and leaves the key and the log as they were; the bound itself is taken', async () => {
    const key = await given();

    await expect(revoke.execute({ actor: BY, keyId: key.id, reason: 'x'.repeat(MAX_REVOCATION_REASON_LENGTH + 1) })).rejects.toBeInstanceOf(
      InvalidRequestError,
    );

    expect((await keys.findById(key.id))?.revokedAt).toBeNull();
    await expect(audit.list({ keyId: key.id, limit: 10 })).resolves.toEqual([]);
    await expect(revoke.execute({ actor: BY, keyId: key.id, reason: 'x'.repeat(MAX_REVOCATION_REASON_LENGTH) })).resolves.toMatchObject({
      status: 'revoked',
    });
  });

  it('revokes an expired key', async () => {
    const key = await given({ expiresAt: new Date(T0.getTime() - DAY_MS) });
    await expect(revoke.execute({ actor: BY, keyId: key.id, reason: null })).resolves.toMatchObject({ status: 'revoked' });
  });

  it('answers KeyRevokedError for a key already revoked, logging nothing more', async () => {
    const key = await given();
    await revoke.execute({ actor: BY, keyId: key.id, reason: 'first' });

    await expect(revoke.execute({ actor: BY, keyId: key.id, reason: 'second' })).rejects.toBeInstanceOf(KeyRevokedError);

    await expect(audit.list({ keyId: key.id, limit: 10 })).resolves.toHaveLength(1);
  });

  it('lets exactly one of 10 concurrent revocations succeed; the others answer KEY_REVOKED', async () => {
    const key = await given();

    const results = await Promise.allSettled(Array.from({ length: 10 }, () => revoke.execute({ actor: BY, keyId: key.id, reason: null })));

    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((x): x is PromiseRejectedResult => x.status === 'rejected')) {
      expect(r.reason).toBeInstanceOf(KeyRevokedError);
    }
  });

  it('answers KeyNotFoundError for an unknown key', async () => {
    await expect(revoke.execute({ actor: BY, keyId: 'key_missing', reason: null })).rejects.toBeInstanceOf(KeyNotFoundError);
  });
});
