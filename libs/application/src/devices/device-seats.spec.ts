import { FingerprintDigest, FixedClock } from '@svc/domain';
import {
  InMemoryApiKeyRepository,
  InMemoryAuditLog,
  InMemoryDeviceRepository,
  type InMemoryStoredLicenseRepository,
} from '../../../../test/in-memory';
import { SequentialIdGenerator, T0, makeApiKey, shippedTierCatalog } from '../../../../test/factories/domain.factory';
import { offlineLicensesOver } from '../../../../test/factories/license-signers';
import { ActivateDevice, DeactivateDevice, ListLicenseDevices } from './device-seats';

/** A digest that shows what it digested (the real one is SHA-256, in the infrastructure). */
class TaggedDigest extends FingerprintDigest {
  of(fingerprint: string): string {
    return `digest-of-${fingerprint}`;
  }
}

const OPERATOR = { type: 'operator', operatorId: 'opr_1', name: 'Ada' } as const;
const fp = (n: number) => `fingerprint-of-machine-${n}`;

describe('devices: the override in activation, the one deactivation, the license list (CONTRACT 23)', () => {
  let devices: InMemoryDeviceRepository;
  let audit: InMemoryAuditLog;
  let keys: InMemoryApiKeyRepository;
  let clock: FixedClock;
  let activate: ActivateDevice;
  let deactivate: DeactivateDevice;
  let list: ListLicenseDevices;
  let stored: InMemoryStoredLicenseRepository;

  beforeEach(() => {
    audit = new InMemoryAuditLog();
    keys = new InMemoryApiKeyRepository(audit);
    devices = new InMemoryDeviceRepository(keys, audit);
    clock = new FixedClock(T0);
    const catalog = shippedTierCatalog();
    const ids = new SequentialIdGenerator();
    const offline = offlineLicensesOver(keys, undefined, 3600, devices);
    stored = offline.stored;
    activate = new ActivateDevice(devices, catalog, clock, ids, new TaggedDigest(), offline.licenses);
    deactivate = new DeactivateDevice(devices, catalog, clock, new TaggedDigest(), ids, offline.licenses);
    list = new ListLicenseDevices(keys, devices, catalog, clock);
  });

  it("signs the device's license ahead at activation (re-activation too) and forgets it at deactivation", async () => {
    const key = makeApiKey({ licenseType: 'research' });
    await keys.insert(key);
    const { device } = await activate.execute({ key, fingerprint: fp(1), name: null, platform: null });
    const signed = await stored.find(key.id, `digest-of-${fp(1)}`);
    expect(signed?.signedAt).toEqual(T0);
    clock.set(new Date(T0.getTime() + 1000));
    await activate.execute({ key, fingerprint: fp(1), name: null, platform: null });
    expect((await stored.find(key.id, `digest-of-${fp(1)}`))?.signedAt).toEqual(clock.now());
    await deactivate.execute({ key, device: { deviceId: device.id }, reason: 'operator', actor: OPERATOR });
    expect(await stored.find(key.id, `digest-of-${fp(1)}`)).toBeNull();
  });

  it("activation obeys the license's override, below the active count too", async () => {
    const key = makeApiKey({ licenseType: 'research' });
    await keys.insert(key);
    await activate.execute({ key, fingerprint: fp(1), name: null, platform: null });
    await activate.execute({ key, fingerprint: fp(2), name: null, platform: null });
    await devices.setMaxDevicesOverride(key.licenseId, 1);
    await expect(activate.execute({ key, fingerprint: fp(3), name: null, platform: null })).rejects.toMatchObject({
      code: 'DEVICE_LIMIT_REACHED',
      maxDevices: 1,
      active: 2,
    });
    expect((await activate.execute({ key, fingerprint: fp(1), name: null, platform: null })).created).toBe(false);
  });

  it('deactivates by id for an operator (audited with the actor and reason), idempotently; another license is DEVICE_NOT_FOUND', async () => {
    const key = makeApiKey({ licenseType: 'research' });
    const other = makeApiKey({ licenseType: 'research' });
    await keys.insert(key);
    await keys.insert(other);
    const { device } = await activate.execute({ key, fingerprint: fp(1), name: 'PC', platform: 'linux' });

    await expect(
      deactivate.execute({ key: other, device: { deviceId: device.id }, reason: 'operator', actor: OPERATOR }),
    ).rejects.toMatchObject({ code: 'DEVICE_NOT_FOUND' });
    const first = await deactivate.execute({ key, device: { deviceId: device.id }, reason: 'operator', actor: OPERATOR });
    expect(first).toMatchObject({ deactivatedNow: true, device: { id: device.id, deactivatedAt: T0, deactivationReason: 'operator' } });
    clock.advance(60_000);
    const again = await deactivate.execute({ key, device: { deviceId: device.id }, reason: 'operator', actor: OPERATOR });
    expect(again).toMatchObject({ deactivatedNow: false, device: { deactivatedAt: T0, deactivationReason: 'operator' } });

    const entries = await audit.list({ action: 'device.deactivated', limit: 10 });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      keyId: key.id,
      actor: OPERATOR,
      details: { device_id: device.id, license_id: key.licenseId, name: 'PC', platform: 'linux', reason: 'operator' },
    });
    expect(JSON.stringify(entries)).not.toContain(fp(1));
  });

  it("by fingerprint (the SDK's), a device not active is DEVICE_NOT_FOUND", async () => {
    const key = makeApiKey({ licenseType: 'research' });
    await activate.execute({ key, fingerprint: fp(1), name: null, platform: null });
    const actor = { type: 'key', keyId: key.id } as const;
    await deactivate.execute({ key, device: { fingerprint: fp(1) }, reason: 'sdk', actor });
    await expect(deactivate.execute({ key, device: { fingerprint: fp(1) }, reason: 'sdk', actor })).rejects.toMatchObject({
      code: 'DEVICE_NOT_FOUND',
    });
  });

  it('lists the license devices active first, newest first within each; the key is KEY_NOT_FOUND when unknown', async () => {
    const key = makeApiKey({ licenseType: 'research' });
    await keys.insert(key);
    const one = await activate.execute({ key, fingerprint: fp(1), name: 'one', platform: null });
    clock.advance(1000);
    const two = await activate.execute({ key, fingerprint: fp(2), name: 'two', platform: null });
    clock.advance(1000);
    const three = await activate.execute({ key, fingerprint: fp(3), name: 'three', platform: null });
    await deactivate.execute({ key, device: { deviceId: three.device.id }, reason: 'operator', actor: OPERATOR });
    const listed = await list.execute(key.id);
    expect(listed.devices.map((d) => [d.device.id, d.status])).toEqual([
      [two.device.id, 'active'],
      [one.device.id, 'active'],
      [three.device.id, 'deactivated'],
    ]);
    await expect(list.execute('key_unknown')).rejects.toMatchObject({ code: 'KEY_NOT_FOUND' });
    expect((await list.keyOfDevice(one.device.id)).id).toBe(key.id);
  });
});
