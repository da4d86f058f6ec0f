import { ApiKey, ApiKeyFormat, ApiKeyRepository, DomainErrorCode, FixedClock } from '@svc/domain';
import { Sha256SecretHasher } from '@svc/infrastructure/crypto/sha256-secret-hasher';
import { InMemoryApiKeyRepository } from '@svc/infrastructure/persistence/in-memory';
import { DAY_MS, T0, makeApiKey, makeSecret } from '../../../../test/factories/domain.factory';
import { AuthenticateApiKey } from './authenticate-api-key.use-case';

const hasher = new Sha256SecretHasher(null);
const EXPIRES = new Date(T0.getTime() + 30 * DAY_MS);

/** A repository that fails the test if a malformed key ever reaches storage. */
class UntouchableApiKeyRepository extends ApiKeyRepository {
  private refuse(): never {
    throw new Error('the key store must not be touched');
  }
  findByDigest(): Promise<ApiKey | null> {
    this.refuse();
  }
  findById(): Promise<ApiKey | null> {
    this.refuse();
  }
  insert(): Promise<void> {
    this.refuse();
  }
  updateTerms(): Promise<boolean> {
    this.refuse();
  }
  markRevoked(): Promise<boolean> {
    this.refuse();
  }
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
  let clock: FixedClock;
  let authenticate: AuthenticateApiKey;
  const stored: Record<string, ApiKey> = {};

  beforeEach(async () => {
    keys = new InMemoryApiKeyRepository();
    clock = new FixedClock(T0);
    authenticate = new AuthenticateApiKey(new ApiKeyFormat('svc'), hasher, keys, clock);
    const seed = async (name: string, secret: string, overrides: Parameters<typeof makeApiKey>[0]) => {
      stored[name] = makeApiKey({ digest: hasher.digest(secret), expiresAt: EXPIRES, ...overrides });
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
      ['an upper-case copy of an issued key (lookup is exact)', () => secrets.active.toUpperCase().replace('SVC_LIVE_', 'svc_live_'), 'INVALID_KEY'],
      ['a revoked key', () => secrets.revoked, 'INVALID_KEY'],
      ['a revoked key that has also expired (revoked beats expired)', () => secrets.revokedAndExpired, 'INVALID_KEY'],
      ['a key that expires at exactly this instant', () => secrets.expired, 'KEY_EXPIRED'],
      ['an active live key', () => secrets.active, 'OK'],
      ['an active test key', () => secrets.activeTest, 'OK'],
    ])('%s: %s', async (_, presented, expected) => {
      await expect(codeOf(authenticate.execute(presented()))).resolves.toBe(expected);
    });
  });

  it('answers the stored key for an active one', async () => {
    const key = await authenticate.execute(secrets.active);
    expect(key.props).toEqual(stored.active.props);
  });

  it('lets a key work until the millisecond before expires_at, then answers KEY_EXPIRED', async () => {
    clock.set(new Date(EXPIRES.getTime() - 1));
    await expect(authenticate.execute(secrets.active)).resolves.toBeInstanceOf(ApiKey);
    clock.set(EXPIRES);
    await expect(authenticate.execute(secrets.active)).rejects.toMatchObject({ code: 'KEY_EXPIRED' });
  });

  it('never touches storage for a missing or malformed key', async () => {
    const sealed = new AuthenticateApiKey(new ApiKeyFormat('svc'), hasher, new UntouchableApiKeyRepository(), clock);
    await expect(sealed.execute(undefined)).rejects.toMatchObject({ code: 'MISSING_KEY' });
    await expect(sealed.execute('   ')).rejects.toMatchObject({ code: 'MISSING_KEY' });
    await expect(sealed.execute(42)).rejects.toMatchObject({ code: 'INVALID_FORMAT' });
    await expect(sealed.execute(`${secrets.active}x`)).rejects.toMatchObject({ code: 'INVALID_FORMAT' });
  });

  it('judges keys against the configured prefix', async () => {
    const acmeSecret = makeSecret({ prefix: 'acme' });
    await keys.insert(makeApiKey({ digest: hasher.digest(acmeSecret), expiresAt: EXPIRES }));
    const acme = new AuthenticateApiKey(new ApiKeyFormat('acme'), hasher, keys, clock);

    await expect(acme.execute(acmeSecret)).resolves.toBeInstanceOf(ApiKey);
    await expect(acme.execute(secrets.active)).rejects.toMatchObject({ code: 'INVALID_FORMAT' });
  });
});
