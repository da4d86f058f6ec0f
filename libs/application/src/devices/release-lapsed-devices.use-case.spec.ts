import { FixedClock, TierCatalog } from '@svc/domain';
import { InMemoryApiKeyRepository, InMemoryAuditLog, InMemoryDeviceRepository } from '../../../../test/in-memory';
import { SequentialIdGenerator, T0, makeApiKey } from '../../../../test/factories/domain.factory';
import { offlineLicensesOver } from '../../../../test/factories/license-signers';
import shippedTiers from '../../../../config/tiers.json';
import { ReleaseLapsedDevices } from './release-lapsed-devices.use-case';

const LEASE_MS = 3600_000;
const noRecords = () => ({ audit: [], events: [] });

describe(ReleaseLapsedDevices.name, () => {
  const catalog = TierCatalog.fromSource({
    ...shippedTiers,
    research: { ...shippedTiers.research, device_lease_seconds: LEASE_MS / 1000 },
  });
  let clock: FixedClock;
  let audit: InMemoryAuditLog;
  let devices: InMemoryDeviceRepository;
  let release: ReleaseLapsedDevices;

  beforeEach(() => {
    clock = new FixedClock(T0);
    audit = new InMemoryAuditLog();
    const keys = new InMemoryApiKeyRepository(audit);
    devices = new InMemoryDeviceRepository(keys, audit);
    release = new ReleaseLapsedDevices(
      devices,
      catalog,
      clock,
      new SequentialIdGenerator(),
      offlineLicensesOver(keys, undefined, 3600, devices).licenses,
    );
    return Promise.all([
      keys.insert(makeApiKey({ id: 'key_research', licenseId: 'key_research', licenseType: 'research' })),
      keys.insert(makeApiKey({ id: 'key_free', licenseId: 'key_free', licenseType: 'free' })),
    ]);
  });

  const activate = (id: string, licenseId: string, digest: string) =>
    devices.activate(
      { id, licenseId, fingerprintDigest: digest, name: null, platform: null, at: clock.now(), maxDevices: null, heldSince: null },
      noRecords,
    );

  it('marks lease_expired the devices of a leased tier not seen for the lease, once, with an audit entry by system and a webhook', async () => {
    await activate('dev_old', 'key_research', 'a'.repeat(64));
    await activate('dev_free', 'key_free', 'b'.repeat(64));
    clock.advance(LEASE_MS / 2);
    await activate('dev_new', 'key_research', 'c'.repeat(64));
    clock.advance(LEASE_MS / 2 - 1);
    expect(await release.execute(10)).toEqual({ released: 0, skipped: 0 });
    clock.advance(1);

    expect(await release.execute(10)).toEqual({ released: 1, skipped: 0 });
    expect(await release.execute(10)).toEqual({ released: 0, skipped: 0 });
    const entries = await audit.list({ action: 'device.deactivated', limit: 10 });
    expect(entries).toEqual([
      expect.objectContaining({
        keyId: 'key_research',
        actor: { type: 'system' },
        details: expect.objectContaining({ device_id: 'dev_old', reason: 'lease_expired' }),
      }),
    ]);
    expect(devices.events).toEqual([
      expect.objectContaining({
        type: 'device.deactivated',
        data: expect.objectContaining({ device_id: 'dev_old', reason: 'lease_expired' }),
      }),
    ]);
  });

  it('does not release a device seen after it was found lapsed', async () => {
    await activate('dev_old', 'key_research', 'a'.repeat(64));
    clock.advance(LEASE_MS);
    const [found] = await devices.lapsed([{ licenseType: 'research', heldSince: new Date(clock.now().getTime() - LEASE_MS) }], 10);
    expect(found.device.id).toBe('dev_old');
    await devices.touch('dev_old', clock.now(), clock.now());
    const heldSince = new Date(clock.now().getTime() - LEASE_MS);
    expect(await devices.releaseLapsed('dev_old', heldSince, clock.now(), noRecords())).toBe(false);
  });
});
