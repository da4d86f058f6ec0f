import { type ApiKey, FixedClock, KeyNotFoundError, KeyRevokedError, KeyRotationPolicy } from '@svc/domain';
import {
  InMemoryApiKeyRepository,
  InMemoryAuditLog,
  InMemoryUsageRepository,
  InMemoryUserRepository,
  InMemoryDeviceRepository,
} from '../../../../test/in-memory';
import {
  DAY_MS,
  SequentialIdGenerator,
  T0,
  makeApiKey,
  makeUser,
  shippedTierCatalog,
  revokeAlone,
  NO_RECORDS,
} from '../../../../test/factories/domain.factory';
import { ShowApiKey } from './show-api-key.use-case';
import { UpdateApiKey } from './update-api-key.use-case';

/** The actor of the changes these tests make. */
const BY = { type: 'bootstrap' } as const;

/** A store where the key gets revoked between the use case reading it and saving it. */
class RevokedMidwayRepository extends InMemoryApiKeyRepository {
  override async findById(id: string): Promise<ApiKey | null> {
    const key = await super.findById(id);
    await revokeAlone(this, id, T0);
    return key;
  }
}
import { offlineLicensesOver } from '../../../../test/factories/license-signers';

describe(UpdateApiKey.name, () => {
  let keys: InMemoryApiKeyRepository;
  let users: InMemoryUserRepository;
  let usage: InMemoryUsageRepository;
  let audit: InMemoryAuditLog;
  let clock: FixedClock;
  let update: UpdateApiKey;
  let devices: InMemoryDeviceRepository;

  function build(): UpdateApiKey {
    const catalog = shippedTierCatalog();
    devices = new InMemoryDeviceRepository(keys, audit);
    const show = new ShowApiKey(keys, users, usage, catalog, clock, devices);
    return new UpdateApiKey(keys, show, audit, clock, new SequentialIdGenerator(), catalog, offlineLicensesOver(keys).licenses, devices);
  }

  beforeEach(() => {
    audit = new InMemoryAuditLog();
    keys = new InMemoryApiKeyRepository(audit);
    users = new InMemoryUserRepository();
    usage = new InMemoryUsageRepository();
    clock = new FixedClock(T0);
    update = build();
  });

  async function given(overrides: Parameters<typeof makeApiKey>[0] = {}): Promise<ApiKey> {
    const user = makeUser();
    await users.insert(user);
    const key = makeApiKey({ userId: user.id, ...overrides });
    await keys.insert(key);
    return key;
  }

  it('changes the tier; a limit that follows the tier follows it', async () => {
    const key = await given({ licenseType: 'free', monthlyLimit: { source: 'tier' } });
    usage.consumeNow(key.id, '2026-03', 12, null);

    const details = await update.execute({ actor: BY, role: 'owner', keyId: key.id, licenseType: 'commercial' });

    expect(details.key.licenseType).toBe('commercial');
    expect(details.quota).toMatchObject({ monthlyLimit: 500000, used: 12, remaining: 499988 });
    expect(details.status).toBe('active');
    expect(details.user.id).toBe(key.userId);
    const stored = await keys.findById(key.id);
    expect(stored?.licenseType).toBe('commercial');
    expect(stored?.props.monthlyLimit).toEqual({ source: 'tier' });
  });

  it('keeps an override when the tier changes', async () => {
    const key = await given({ licenseType: 'free', monthlyLimit: { source: 'override', limit: 5 } });
    const details = await update.execute({ actor: BY, role: 'owner', keyId: key.id, licenseType: 'enterprise' });
    expect(details.quota.monthlyLimit).toBe(5);
  });

  it.each([
    ['an integer overrides', 250, { source: 'override', limit: 250 }, 250],
    ['null makes it unlimited', null, { source: 'override', limit: null }, null],
    ['"tier" goes back to the tier limit', 'tier' as const, { source: 'tier' }, 50000],
  ])('monthly_limit: %s', async (_, monthlyLimit, setting, inForce) => {
    const key = await given({ licenseType: 'research', monthlyLimit: { source: 'override', limit: 3 } });

    const details = await update.execute({ actor: BY, role: 'owner', keyId: key.id, monthlyLimit });

    expect((await keys.findById(key.id))?.props.monthlyLimit).toEqual(setting);
    expect(details.quota.monthlyLimit).toBe(inForce);
  });

  it("max_devices: the license's override, seen by the key's view, audited from and to; null goes back to the tier's", async () => {
    const key = await given({ licenseType: 'research' });
    const set = await update.execute({ actor: BY, role: 'support', keyId: key.id, maxDevices: 2 });
    expect(set.maxDevices).toEqual({ value: 2, source: 'override' });
    expect(await devices.maxDevicesOverrideOf(key.licenseId)).toBe(2);
    const reset = await update.execute({ actor: BY, role: 'support', keyId: key.id, maxDevices: null });
    expect(reset.maxDevices).toEqual({ value: 3, source: 'tier' });
    expect(await devices.maxDevicesOverrideOf(key.licenseId)).toBeNull();
    const [latest, first] = (await audit.list({ keyId: key.id, action: 'key.updated', limit: 10 })).map((e) => e.details);
    expect(first).toEqual({ max_devices: { from: { source: 'tier' }, to: { source: 'override', max_devices: 2 } } });
    expect(latest).toEqual({ max_devices: { from: { source: 'override', max_devices: 2 }, to: { source: 'tier' } } });
  });

  it('max_devices above the tier needs keys.raise_limit; a value out of bounds is INVALID_REQUEST; nothing is changed', async () => {
    const key = await given({ licenseType: 'research' });
    await expect(update.execute({ actor: BY, role: 'support', keyId: key.id, maxDevices: 4 })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    for (const bad of [-1, 1.5, 1_000_001]) {
      await expect(update.execute({ actor: BY, role: 'owner', keyId: key.id, maxDevices: bad })).rejects.toMatchObject({
        code: 'INVALID_REQUEST',
      });
    }
    expect(await devices.maxDevicesOverrideOf(key.licenseId)).toBeNull();
    expect((await update.execute({ actor: BY, role: 'admin', keyId: key.id, maxDevices: 40 })).maxDevices.value).toBe(40);
  });

  it('leaves the limit alone when monthly_limit is not given', async () => {
    const key = await given({ monthlyLimit: { source: 'override', limit: 3 } });
    await update.execute({ actor: BY, role: 'owner', keyId: key.id, licenseType: 'free' });
    expect((await keys.findById(key.id))?.props.monthlyLimit).toEqual({ source: 'override', limit: 3 });
  });

  it('changes the expiry, to the past too', async () => {
    const key = await given();
    const past = new Date(T0.getTime() - DAY_MS);

    const details = await update.execute({ actor: BY, role: 'owner', keyId: key.id, expiresAt: past });

    expect(details.status).toBe('expired');
    expect((await keys.findById(key.id))?.expiresAt).toEqual(past);
  });

  it('writes a key.updated audit entry with what changed, from and to', async () => {
    const key = await given({ licenseType: 'free', expiresAt: new Date('2027-01-01T00:00:00Z') });
    clock.advance(60_000);

    await update.execute({
      actor: BY,
      role: 'owner',
      keyId: key.id,
      licenseType: 'research',
      expiresAt: new Date('2027-06-01T00:00:00Z'),
      monthlyLimit: null,
    });

    await expect(audit.list({ keyId: key.id, limit: 10 })).resolves.toEqual([
      {
        id: expect.stringMatching(/^aud_/),
        at: new Date(T0.getTime() + 60_000),
        action: 'key.updated',
        keyId: key.id,
        reason: null,
        details: {
          license_type: { from: 'free', to: 'research' },
          expires_at: { from: '2027-01-01T00:00:00Z', to: '2027-06-01T00:00:00Z' },
          monthly_limit: { from: { source: 'tier' }, to: { source: 'override', limit: null } },
        },
        actor: BY,
      },
    ]);
  });

  it('refuses a revoked key with KeyRevokedError, changing nothing', async () => {
    const key = await given({ licenseType: 'free', revokedAt: T0 });

    await expect(update.execute({ actor: BY, role: 'owner', keyId: key.id, licenseType: 'enterprise' })).rejects.toBeInstanceOf(
      KeyRevokedError,
    );

    expect((await keys.findById(key.id))?.licenseType).toBe('free');
    await expect(audit.list({ limit: 10 })).resolves.toEqual([]);
  });

  it('refuses with KeyRevokedError when the key is revoked while being updated', async () => {
    keys = new RevokedMidwayRepository(audit);
    update = build();
    const key = await given({ licenseType: 'free' });

    await expect(update.execute({ actor: BY, role: 'owner', keyId: key.id, licenseType: 'enterprise' })).rejects.toMatchObject({
      code: 'KEY_REVOKED',
    });

    expect((await keys.findById(key.id))?.licenseType).toBe('free');
    await expect(audit.list({ limit: 10 })).resolves.toEqual([]);
  });

  it('answers KeyNotFoundError for an unknown key', async () => {
    await expect(update.execute({ actor: BY, role: 'owner', keyId: 'key_missing', licenseType: 'free' })).rejects.toBeInstanceOf(
      KeyNotFoundError,
    );
  });

  it.each([
    ['a negative limit', { monthlyLimit: -5 }],
    ['a fractional limit', { monthlyLimit: 0.5 }],
    ['an unsafe integer', { monthlyLimit: Number.MAX_SAFE_INTEGER + 1 }],
  ])('refuses %s with INVALID_REQUEST, changing nothing', async (_, change) => {
    const key = await given({ licenseType: 'free' });
    await expect(update.execute({ actor: BY, role: 'owner', keyId: key.id, licenseType: 'enterprise', ...change })).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
      hint: 'monthly_limit must be an integer >= 0, null for unlimited, or "tier"',
    });
    expect((await keys.findById(key.id))?.props).toEqual(key.props);
    await expect(audit.list({ limit: 10 })).resolves.toEqual([]);
  });

  it('refuses support a limit above the tier, unlimited or a long extension (FORBIDDEN), changing nothing; lets it lower and extend a little', async () => {
    const key = await given({ licenseType: 'research', expiresAt: new Date(T0.getTime() + 365 * DAY_MS) });
    const support = { actor: BY, role: 'support', keyId: key.id } as const;
    for (const change of [{ monthlyLimit: 50_001 }, { monthlyLimit: null }, { expiresAt: new Date(T0.getTime() + 731 * DAY_MS) }]) {
      await expect(update.execute({ ...support, ...change })).rejects.toMatchObject({ code: 'FORBIDDEN', roleNeeded: 'admin' });
    }
    expect((await keys.findById(key.id))?.props).toEqual(key.props);
    await expect(audit.list({ limit: 10 })).resolves.toEqual([]);

    await update.execute({ ...support, monthlyLimit: 100, expiresAt: new Date(T0.getTime() + 395 * DAY_MS) });
    expect((await keys.findById(key.id))?.props).toMatchObject({
      monthlyLimit: { source: 'override', limit: 100 },
      expiresAt: new Date(T0.getTime() + 395 * DAY_MS),
    });
    await update.execute({ ...support, role: 'admin', monthlyLimit: null, expiresAt: new Date(T0.getTime() + 3650 * DAY_MS) });
    expect((await keys.findById(key.id))?.props.monthlyLimit).toEqual({ source: 'override', limit: null });
  });

  it('changes nothing for a monthly_limit left undefined', async () => {
    const key = await given({ monthlyLimit: { source: 'override', limit: 3 } });
    await update.execute({ actor: BY, role: 'owner', keyId: key.id, monthlyLimit: undefined });
    expect((await keys.findById(key.id))?.props.monthlyLimit).toEqual({ source: 'override', limit: 3 });
  });

  describe('a license of rotated keys (CONTRACT 16)', () => {
    const policy = new KeyRotationPolicy(3600, 90);

    it('refuses a key already rotated with KEY_ROTATED, and leaves it as it was', async () => {
      const old = await given({ licenseType: 'free' });
      const rotation = policy.rotationOf(old, { id: 'key_next', digest: 'e'.repeat(64), displayPrefix: 'svc_live_eee' }, T0);
      await keys.rotate(rotation, NO_RECORDS);
      await expect(
        update.execute({ actor: BY, role: 'owner', keyId: old.id, expiresAt: new Date(T0.getTime() + 400 * DAY_MS) }),
      ).rejects.toMatchObject({
        code: 'KEY_ROTATED',
      });
      expect((await keys.findById(old.id))?.expiresAt).toEqual(rotation.predecessorExpiresAt);
    });

    it('a tier or limit change of the current key reaches the predecessors in their grace, not their expiry', async () => {
      const old = await given({ licenseType: 'free' });
      const rotation = policy.rotationOf(old, { id: 'key_next', digest: 'e'.repeat(64), displayPrefix: 'svc_live_eee' }, T0);
      await keys.rotate(rotation, NO_RECORDS);
      await update.execute({ actor: BY, role: 'owner', keyId: 'key_next', licenseType: 'enterprise', monthlyLimit: 5 });
      expect((await keys.findById(old.id))?.props).toMatchObject({
        licenseType: 'enterprise',
        monthlyLimit: { source: 'override', limit: 5 },
        expiresAt: rotation.predecessorExpiresAt,
      });
      const [entry] = await audit.list({ keyId: 'key_next', limit: 1 });
      expect(entry.details).toMatchObject({ grace_keys: [old.id] });
    });
  });
});
