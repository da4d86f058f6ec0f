import { ApiKey, ApiKeyFormat, type DomainErrorCode, FixedClock, type KeyContext, KeyContextRepository } from '@svc/domain';
import { Sha256SecretHasher } from '@svc/infrastructure/crypto/sha256-secret-hasher';
import {
  InMemoryApiKeyRepository,
  InMemoryKeyContextRepository,
  InMemoryUsageRepository,
  InMemoryUserRepository,
  InMemoryAuditLog,
} from '../../../../test/in-memory';
import { DAY_MS, T0, makeApiKey, makeSecret, makeUser } from '../../../../test/factories/domain.factory';
import { AuthenticateApiKey } from './authenticate-api-key.use-case';

const hasher = new Sha256SecretHasher(null);
const EXPIRES = new Date(T0.getTime() + 30 * DAY_MS);

/** A repository that fails the test if a malformed key ever reaches storage. */
class UntouchableKeyContextRepository extends KeyContextRepository {
  findByDigest(): Promise<KeyContext | null> {
    throw new Error('the key store must not be touched');
  }
}

class UntouchableApiKeyRepository extends InMemoryApiKeyRepository {
  override findByDigest(): Promise<ApiKey | null> {
    throw new Error('the key store must not be touched');
  }
}

/** The guard's two steps: judge (and digest) the presented value, then check it, reading the key with its context. */
function authenticateRaw(authenticate: AuthenticateApiKey, presented: unknown, purpose?: 'use' | 'revoke'): Promise<KeyContext> {
  return authenticate.withContext(authenticate.present(presented), purpose);
}

/** The same check reading the key alone: it must answer exactly as the read with context does. */
async function sameVerdictBothReads(
  authenticate: AuthenticateApiKey,
  presented: unknown,
  purpose?: 'use' | 'revoke',
): Promise<DomainErrorCode | 'OK'> {
  const alone = await codeOf(authenticate.execute(authenticate.present(presented), purpose));
  const withContext = await codeOf(authenticateRaw(authenticate, presented, purpose));
  expect(alone).toBe(withContext);
  return alone;
}

async function codeOf(promise: Promise<unknown>): Promise<DomainErrorCode | 'OK'> {
  try {
    await promise;
    return 'OK';
  } catch (error) {
    return (error as { code: DomainErrorCode }).code;
  }
}

describe(AuthenticateApiKey.name, () => {
  const secrets = {
    active: makeSecret(),
    activeTest: makeSecret({ environment: 'test' }),
    expired: makeSecret(),
    revoked: makeSecret(),
    revokedAndExpired: makeSecret(),
    unknown: makeSecret(),
  };
  /** An expired key stored under the digest of a malformed string: format must win without a lookup. */
  const malformedButStored = ` ${makeSecret()}`;

  let keys: InMemoryApiKeyRepository;
  let contexts: InMemoryKeyContextRepository;
  let clock: FixedClock;
  let authenticate: AuthenticateApiKey;
  const stored: Record<string, ApiKey> = {};

  beforeEach(async () => {
    keys = new InMemoryApiKeyRepository(new InMemoryAuditLog());
    const users = new InMemoryUserRepository();
    contexts = new InMemoryKeyContextRepository(keys, users, new InMemoryUsageRepository());
    clock = new FixedClock(T0);
    authenticate = new AuthenticateApiKey(new ApiKeyFormat('svc'), hasher, keys, contexts, clock);
    const holder = makeUser();
    await users.insert(holder);
    const seed = async (name: string, secret: string, overrides: Parameters<typeof makeApiKey>[0]) => {
      stored[name] = makeApiKey({ userId: holder.id, digest: hasher.digest(secret), expiresAt: EXPIRES, ...overrides });
      await keys.insert(stored[name]);
    };
    await seed('active', secrets.active, {});
    await seed('activeTest', secrets.activeTest, { environment: 'test' });
    await seed('expired', secrets.expired, { expiresAt: T0 });
    await seed('revoked', secrets.revoked, { revokedAt: new Date(T0.getTime() - 1000) });
    await seed('revokedAndExpired', secrets.revokedAndExpired, { expiresAt: T0, revokedAt: new Date(T0.getTime() - 1000) });
    await seed('malformedButStored', malformedButStored, { expiresAt: T0 });
  });

  describe('answers the first failing check, in CONTRACT 2 order', () => {
    it.each<[string, () => unknown, DomainErrorCode | 'OK']>([
      ['no key at all', () => undefined, 'MISSING_KEY'],
      ['null', () => null, 'MISSING_KEY'],
      ['an empty string', () => '', 'MISSING_KEY'],
      ['only whitespace (blank beats malformed)', () => ' \t\n', 'MISSING_KEY'],
      ['a number', () => 12345, 'INVALID_FORMAT'],
      ['an object', () => ({ key: secrets.active }), 'INVALID_FORMAT'],
      ['an array holding a valid key', () => [secrets.active], 'INVALID_FORMAT'],
      ['a valid key with a trailing space', () => `${secrets.active} `, 'INVALID_FORMAT'],
      ['a valid key with another prefix', () => secrets.active.replace('svc_', 'abc_'), 'INVALID_FORMAT'],
      ['a malformed key that is stored, expired (format beats everything)', () => malformedButStored, 'INVALID_FORMAT'],
      ['a well-formed key never issued', () => secrets.unknown, 'INVALID_KEY'],
      [
        'an upper-case copy of an issued key (lookup is exact)',
        () => secrets.active.toUpperCase().replace('SVC_LIVE_', 'svc_live_'),
        'INVALID_KEY',
      ],
      ['a revoked key', () => secrets.revoked, 'INVALID_KEY'],
      ['a revoked key that has also expired (revoked beats expired)', () => secrets.revokedAndExpired, 'INVALID_KEY'],
      ['a key that expires at exactly this instant', () => secrets.expired, 'KEY_EXPIRED'],
      ['an active live key', () => secrets.active, 'OK'],
      ['an active test key', () => secrets.activeTest, 'OK'],
    ])('%s: %s', async (_, presented, expected) => {
      await expect(sameVerdictBothReads(authenticate, presented())).resolves.toBe(expected);
    });
  });

  it('answers the stored key, its user and its usage for an active one', async () => {
    const found = await authenticateRaw(authenticate, secrets.active);
    expect(found.key.props).toEqual(stored.active.props);
    expect(found.user.id).toBe(stored.active.userId);
    expect(found.used).toBe(0);
  });

  it('digests a well-formed key once, when it is presented, and judges a malformed one without a digest', () => {
    expect(authenticate.present(secrets.active)).toEqual({
      key: expect.objectContaining({ kind: 'well-formed' }),
      digest: hasher.digest(secrets.active),
    });
    expect(authenticate.present(` ${secrets.active}`)).toEqual({ key: { kind: 'malformed' }, digest: null });
    expect(authenticate.present(undefined)).toEqual({ key: { kind: 'missing' }, digest: null });
  });

  describe('for revocation (CONTRACT 5)', () => {
    it.each<[string, () => unknown, DomainErrorCode | 'OK']>([
      ['no key at all', () => undefined, 'MISSING_KEY'],
      ['a malformed key', () => `${secrets.active} `, 'INVALID_FORMAT'],
      ['a well-formed key never issued', () => secrets.unknown, 'KEY_NOT_FOUND'],
      ['a revoked key', () => secrets.revoked, 'KEY_NOT_FOUND'],
      ['a revoked key that has also expired', () => secrets.revokedAndExpired, 'KEY_NOT_FOUND'],
      ['an expired key (it may still be revoked)', () => secrets.expired, 'OK'],
      ['an active key', () => secrets.active, 'OK'],
    ])('%s: %s', async (_, presented, expected) => {
      await expect(sameVerdictBothReads(authenticate, presented(), 'revoke')).resolves.toBe(expected);
    });
  });

  it('lets a key work until the millisecond before expires_at, then answers KEY_EXPIRED', async () => {
    clock.set(new Date(EXPIRES.getTime() - 1));
    await expect(authenticateRaw(authenticate, secrets.active)).resolves.toMatchObject({ key: expect.any(ApiKey) });
    clock.set(EXPIRES);
    await expect(authenticateRaw(authenticate, secrets.active)).rejects.toMatchObject({ code: 'KEY_EXPIRED' });
  });

  it('never touches storage for a missing or malformed key', async () => {
    const sealed = new AuthenticateApiKey(
      new ApiKeyFormat('svc'),
      hasher,
      new UntouchableApiKeyRepository(new InMemoryAuditLog()),
      new UntouchableKeyContextRepository(),
      clock,
    );
    await expect(sameVerdictBothReads(sealed, undefined)).resolves.toBe('MISSING_KEY');
    await expect(sameVerdictBothReads(sealed, '   ')).resolves.toBe('MISSING_KEY');
    await expect(sameVerdictBothReads(sealed, 42)).resolves.toBe('INVALID_FORMAT');
    await expect(sameVerdictBothReads(sealed, `${secrets.active}x`)).resolves.toBe('INVALID_FORMAT');
  });

  it('judges keys against the configured prefix', async () => {
    const acmeSecret = makeSecret({ prefix: 'acme' });
    await keys.insert(makeApiKey({ userId: stored.active.userId, digest: hasher.digest(acmeSecret), expiresAt: EXPIRES }));
    const acme = new AuthenticateApiKey(new ApiKeyFormat('acme'), hasher, keys, contexts, clock);

    await expect(authenticateRaw(acme, acmeSecret)).resolves.toMatchObject({ key: expect.any(ApiKey) });
    await expect(authenticateRaw(acme, secrets.active)).rejects.toMatchObject({ code: 'INVALID_FORMAT' });
  });
});
