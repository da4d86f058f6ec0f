import { ApiKeyFormat, FixedClock, InvalidRequestError, UserNotFoundError } from '@svc/domain';
import { Sha256SecretHasher } from '@svc/infrastructure/crypto/sha256-secret-hasher';
import { InMemoryApiKeyRepository, InMemoryAuditLog, InMemoryUserRepository } from '../../../../test/in-memory';
import {
  DAY_MS,
  ScriptedRandomSource,
  SequentialIdGenerator,
  T0,
  makeUser,
  shippedTierCatalog,
} from '../../../../test/factories/domain.factory';
import { IssueApiKey, type IssueApiKeyInput } from './issue-api-key.use-case';

/** The actor of the changes these tests make. */
const BY = { type: 'bootstrap' } as const;

const HEX48 = 'c0ffee'.repeat(8);
const hasher = new Sha256SecretHasher(null);
import { offlineLicensesOver } from '../../../../test/factories/license-signers';

describe(IssueApiKey.name, () => {
  let keys: InMemoryApiKeyRepository;
  let users: InMemoryUserRepository;
  let audit: InMemoryAuditLog;
  let random: ScriptedRandomSource;
  let issue: IssueApiKey;

  function build(prefix = 'svc'): IssueApiKey {
    return new IssueApiKey(
      new ApiKeyFormat(prefix),
      hasher,
      random,
      new SequentialIdGenerator(),
      keys,
      users,
      new FixedClock(T0),
      shippedTierCatalog(),
      offlineLicensesOver(keys).licenses,
    );
  }

  beforeEach(() => {
    audit = new InMemoryAuditLog();
    keys = new InMemoryApiKeyRepository(audit);
    users = new InMemoryUserRepository();
    random = new ScriptedRandomSource([HEX48]);
    issue = build();
  });

  const newUser: IssueApiKeyInput = {
    email: 'grace@example.org',
    name: 'Grace Hopper',
    organization: 'Navy Lab',
    licenseType: 'research',
    actor: BY,
  };

  describe('for a new user', () => {
    it('creates the user and a live key of theirs', async () => {
      const out = await issue.execute(newUser);

      expect(out.user).toEqual({
        id: expect.stringMatching(/^usr_/),
        email: 'grace@example.org',
        name: 'Grace Hopper',
        organization: 'Navy Lab',
        createdAt: T0,
      });
      expect(users.all()).toEqual([out.user]);
      expect(out.key.userId).toBe(out.user.id);
      expect(out.key.props.environment).toBe('live');
      expect(out.key.licenseType).toBe('research');
      expect(out.key.props.createdAt).toEqual(T0);
      expect(out.key.revokedAt).toBeNull();
      expect(keys.all().map((k) => k.props)).toEqual([out.key.props]);
    });

    it('stores null for an unknown name and organization', async () => {
      const out = await issue.execute({ actor: BY, email: 'x@example.org', licenseType: 'free' });
      expect(out.user).toMatchObject({ name: null, organization: null });
    });

    it('needs an email', async () => {
      await expect(issue.execute({ actor: BY, licenseType: 'free' })).rejects.toMatchObject({
        code: 'INVALID_REQUEST',
        hint: 'email is required unless user_id names an existing user',
      });
      expect(users.all()).toEqual([]);
      expect(keys.all()).toEqual([]);
    });

    it.each([
      ['name', { name: 'Grace\u202eHopper' }],
      ['name', { name: 'Grace\nHopper' }],
      ['organization', { organization: 'Navy\u0000Lab' }],
      ['organization', { organization: '\u2067Navy Lab\u2069' }],
    ])('refuses a %s that is not plain text (the CLI reaches here without the DTO)', async (field, change) => {
      await expect(issue.execute({ ...newUser, ...change })).rejects.toMatchObject({
        code: 'INVALID_REQUEST',
        hint: expect.stringMatching(new RegExp(`^${field} must not contain control characters`)),
      });
      expect(users.all()).toEqual([]);
      expect(keys.all()).toEqual([]);
    });

    it.each(['not-an-email', 'a@b', ' grace@example.org', 'grace\u0000@example.org', 'grace@example.org\u202e'])(
      'refuses the email %j',
      async (email) => {
        await expect(issue.execute({ ...newUser, email })).rejects.toBeInstanceOf(InvalidRequestError);
        expect(users.all()).toEqual([]);
      },
    );
  });

  describe('for an existing user', () => {
    it('gives the named user another key, without creating a user or needing an email', async () => {
      const existing = makeUser();
      await users.insert(existing);

      const first = await issue.execute({ actor: BY, userId: existing.id, licenseType: 'free' });
      const second = await issue.execute({ actor: BY, userId: existing.id, licenseType: 'commercial' });

      expect(first.user).toEqual(existing);
      expect(second.user).toEqual(existing);
      expect(users.all()).toEqual([existing]);
      expect(keys.all().map((k) => k.userId)).toEqual([existing.id, existing.id]);
      expect(first.secret).not.toBe(second.secret);
    });

    it('answers USER_NOT_FOUND for an unknown user_id, storing nothing', async () => {
      await expect(issue.execute({ actor: BY, userId: 'usr_missing', email: 'x@example.org', licenseType: 'free' })).rejects.toBeInstanceOf(
        UserNotFoundError,
      );
      await expect(issue.execute({ actor: BY, userId: 'usr_missing', licenseType: 'free' })).rejects.toMatchObject({
        code: 'USER_NOT_FOUND',
      });
      expect(users.all()).toEqual([]);
      expect(keys.all()).toEqual([]);
      await expect(audit.list({ limit: 10 })).resolves.toEqual([]);
    });
  });

  describe('the key', () => {
    it('is <prefix>_live_ and 48 lowercase hex characters from the random source', async () => {
      random = new ScriptedRandomSource([HEX48.toUpperCase()]);
      issue = build();

      const out = await issue.execute(newUser);

      expect(out.secret).toBe(`svc_live_${HEX48}`);
      expect(random.requests).toEqual([24]);
    });

    it('uses the configured prefix and the requested environment', async () => {
      issue = build('acme');
      const out = await issue.execute({ ...newUser, environment: 'test' });
      expect(out.secret).toBe(`acme_test_${HEX48}`);
      expect(out.key.props.environment).toBe('test');
    });

    it('is stored only as its digest, with a 12-character display prefix', async () => {
      const out = await issue.execute(newUser);

      const [stored] = keys.all();
      expect(stored.props.digest).toBe(hasher.digest(out.secret));
      expect(stored.props.digest).toMatch(/^[0-9a-f]{64}$/);
      expect(stored.props.displayPrefix).toBe('svc_live_c0f');
      const everythingStored = JSON.stringify([keys.all(), users.all(), await audit.list({ limit: 100 })]);
      expect(everythingStored).not.toContain(out.secret);
      expect(everythingStored).not.toContain(HEX48);
      await expect(keys.findByDigest(hasher.digest(out.secret))).resolves.toMatchObject({ id: out.key.id });
    });

    it('expires 365 days after issuance by default', async () => {
      const out = await issue.execute(newUser);
      expect(out.key.expiresAt).toEqual(new Date(T0.getTime() + 365 * DAY_MS));
      expect(keys.all()[0].expiresAt).toEqual(new Date('2027-03-15T12:00:00Z'));
    });

    it('keeps an expiry given, even one in the past', async () => {
      const past = new Date('2020-01-01T00:00:00Z');
      const out = await issue.execute({ ...newUser, expiresAt: past });
      expect(out.key.expiresAt).toEqual(past);
      expect(out.key.statusAt(T0)).toBe('expired');
    });
  });

  describe('the monthly limit', () => {
    it.each([
      ['omitted: the tier', undefined, { source: 'tier' }, 50000],
      ['"tier": the tier', 'tier' as const, { source: 'tier' }, 50000],
      ['null: unlimited', null, { source: 'override', limit: null }, null],
      ['an integer: an override', 77, { source: 'override', limit: 77 }, 77],
      ['0: an override', 0, { source: 'override', limit: 0 }, 0],
    ])('%s', async (_, monthlyLimit, setting, inForce) => {
      const out = await issue.execute({ ...newUser, monthlyLimit });
      expect(keys.all()[0].props.monthlyLimit).toEqual(setting);
      expect(out.monthlyLimit).toBe(inForce);
    });

    it('is the tier limit for enterprise: unlimited', async () => {
      await expect(issue.execute({ ...newUser, licenseType: 'enterprise' })).resolves.toMatchObject({ monthlyLimit: null });
    });

    it.each([-1, 2.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1])('refuses %p before storing anything', async (monthlyLimit) => {
      await expect(issue.execute({ ...newUser, monthlyLimit })).rejects.toMatchObject({
        code: 'INVALID_REQUEST',
        hint: 'monthly_limit must be an integer >= 0, or null for unlimited',
      });
      expect(users.all()).toEqual([]);
      expect(keys.all()).toEqual([]);
    });
  });

  it('writes a key.issued audit entry with the user, tier, environment and prefix, never the key', async () => {
    const out = await issue.execute({ ...newUser, environment: 'test' });

    const entries = await audit.list({ keyId: out.key.id, limit: 10 });
    expect(entries).toEqual([
      {
        id: expect.stringMatching(/^aud_/),
        at: T0,
        action: 'key.issued',
        keyId: out.key.id,
        reason: null,
        details: { user_id: out.user.id, license_type: 'research', environment: 'test', prefix: 'svc_test_c0f' },
        actor: BY,
      },
    ]);
    expect(JSON.stringify(entries)).not.toContain(HEX48);
  });
});
