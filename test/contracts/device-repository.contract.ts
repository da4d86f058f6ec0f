import {
  type Device,
  type DeviceActivation,
  type DeviceActivationOutcome,
  type DeviceChangeRecords,
  DeviceRepository,
  type HeldSeat,
  type RecordsOfActivation,
} from '@svc/domain';
import { T0, makeAuditEntry, randomDigest, uniqueId, NO_RECORDS } from '../factories/domain.factory';
import { rotationOf } from './key-rotation.contract';
import { type MakePersistence, type PersistenceFixture, seedKey, useFixture } from './persistence-fixture';

const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

/** A device change's records when a test does not look at them. */
const NO_CHANGE: DeviceChangeRecords = Object.freeze({ audit: [], events: [] });
const noRecords: RecordsOfActivation = () => NO_CHANGE;

/** An activation of a fresh fingerprint on the license at T0, with no seat limit and no lease; override what the test is about. */
function activationOf(licenseId: string, overrides: Partial<DeviceActivation> = {}): DeviceActivation {
  return {
    id: uniqueId('dev'),
    licenseId,
    fingerprintDigest: randomDigest(),
    name: 'Lab PC',
    platform: 'linux-x86_64',
    at: T0,
    maxDevices: null,
    heldSince: null,
    ...overrides,
  };
}

/** The device a successful activation stores: activated and last seen at its moment, holding its seat. */
function deviceOf(activation: DeviceActivation): Device {
  return {
    id: activation.id,
    licenseId: activation.licenseId,
    name: activation.name,
    platform: activation.platform,
    activatedAt: activation.at,
    lastSeenAt: activation.at,
    deactivatedAt: null,
    deactivationReason: null,
  };
}

/** Seats in one order, as the port promises none. */
const sorted = (seats: readonly HeldSeat[]) =>
  [...seats].sort((a, b) => a.licenseId.localeCompare(b.licenseId) || a.digest.localeCompare(b.digest));

/**
 * The behaviour every DeviceRepository adapter must share (CONTRACT 23): activation counts the license's
 * seats (a lapsed lease frees one) and answers the fingerprint already holding one as it is; a seat is
 * held while the device is active and seen after `heldSince`; deactivation and a lapsed lease's release
 * happen once, with their records; a heartbeat moves `last_seen_at` only forward of `before`.
 */
export function describeDeviceRepositoryContract(make: MakePersistence): void {
  describe(`${DeviceRepository.name} contract`, () => {
    const fixture = useFixture(make);

    /** A license of its own: its first key (and the key's user), stored through the ports. */
    const licenseOf = async (f: PersistenceFixture, overrides: Parameters<typeof seedKey>[1] = {}) =>
      (await seedKey(f, overrides)).licenseId;

    /** Activates and expects a new seat; the activation, for what the test checks next. */
    async function activated(f: PersistenceFixture, activation: DeviceActivation): Promise<DeviceActivation> {
      await expect(f.devices.activate(activation, noRecords)).resolves.toEqual({ kind: 'activated', device: deviceOf(activation) });
      return activation;
    }

    const idsOf = (devices: readonly Device[]) => devices.map((d) => d.id).sort();

    describe('activate', () => {
      it('activates up to maxDevices, then refuses with the number of devices holding a seat', async () => {
        const f = fixture();
        const license = await licenseOf(f);
        const first = await activated(f, activationOf(license, { maxDevices: 2, at: at(1) }));
        const second = await activated(f, activationOf(license, { maxDevices: 2, at: at(2) }));
        const third = activationOf(license, { maxDevices: 2, at: at(3) });

        await expect(f.devices.activate(third, noRecords)).resolves.toEqual({ kind: 'limit_reached', maxDevices: 2, active: 2 });

        await expect(f.devices.findById(third.id)).resolves.toBeNull();
        expect(idsOf(await f.devices.listByLicense(license))).toEqual([first.id, second.id].sort());
        await expect(f.devices.findById(second.id)).resolves.toEqual(deviceOf(second));
        await expect(f.devices.fingerprintDigestOf(first.id)).resolves.toBe(first.fingerprintDigest);
      });

      it('refuses every activation at a limit of 0, and none without a limit', async () => {
        const f = fixture();
        const license = await licenseOf(f);
        await expect(f.devices.activate(activationOf(license, { maxDevices: 0 }), noRecords)).resolves.toEqual({
          kind: 'limit_reached',
          maxDevices: 0,
          active: 0,
        });
        for (let i = 0; i < 5; i++) await activated(f, activationOf(license, { at: at(i) }));
        expect(await f.devices.listByLicense(license)).toHaveLength(5);
      });

      it('refuses a limit lowered below the devices holding a seat, counting them all', async () => {
        const f = fixture();
        const license = await licenseOf(f);
        for (let i = 0; i < 3; i++) await activated(f, activationOf(license, { at: at(i) }));
        await expect(f.devices.activate(activationOf(license, { maxDevices: 1, at: at(5) }), noRecords)).resolves.toEqual({
          kind: 'limit_reached',
          maxDevices: 1,
          active: 3,
        });
      });

      it('answers the same fingerprint again as already active, seen now, even with every seat held', async () => {
        const f = fixture();
        const license = await licenseOf(f);
        const first = await activated(f, activationOf(license, { maxDevices: 2, at: at(1) }));
        await activated(f, activationOf(license, { maxDevices: 2, at: at(2) }));
        const again = activationOf(license, { fingerprintDigest: first.fingerprintDigest, maxDevices: 2, at: at(10), name: 'Renamed' });

        const outcome = await f.devices.activate(again, noRecords);

        // the device as it was stored, only seen now: neither the new id nor the new name
        const seenNow: Device = { ...deviceOf(first), lastSeenAt: at(10) };
        expect(outcome).toEqual({ kind: 'already_active', device: seenNow });
        await expect(f.devices.findById(first.id)).resolves.toEqual(seenNow);
        await expect(f.devices.findById(again.id)).resolves.toBeNull();
        expect(await f.devices.listByLicense(license)).toHaveLength(2);
      });

      it("counts only the license's own seats: another license's fingerprint is a device of its own", async () => {
        const f = fixture();
        const full = await licenseOf(f);
        const other = await licenseOf(f);
        const taken = await activated(f, activationOf(full, { maxDevices: 1 }));
        await expect(f.devices.activate(activationOf(full, { maxDevices: 1 }), noRecords)).resolves.toMatchObject({
          kind: 'limit_reached',
        });

        await activated(f, activationOf(other, { fingerprintDigest: taken.fingerprintDigest, maxDevices: 1, at: at(5) }));

        expect(await f.devices.listByLicense(other)).toHaveLength(1);
        expect(idsOf(await f.devices.listByLicense(full))).toEqual([taken.id]);
      });

      it('frees the seat of a device last seen at or before heldSince, without marking it', async () => {
        const f = fixture();
        const license = await licenseOf(f);
        const old = await activated(f, activationOf(license, { maxDevices: 1, at: at(10) }));

        // seen after heldSince: it still holds the one seat
        await expect(
          f.devices.activate(activationOf(license, { maxDevices: 1, at: at(100), heldSince: at(9) }), noRecords),
        ).resolves.toEqual({ kind: 'limit_reached', maxDevices: 1, active: 1 });
        // last seen exactly at heldSince: its seat is free
        const next = await activated(f, activationOf(license, { maxDevices: 1, at: at(100), heldSince: at(10) }));

        await expect(f.devices.findById(old.id)).resolves.toEqual(deviceOf(old));
        expect(idsOf(await f.devices.listByLicense(license))).toEqual([old.id, next.id].sort());
      });

      it('marks a lapsed device of the same fingerprint lease_expired and activates a new one, handing it to recordsOf', async () => {
        const f = fixture();
        const key = await seedKey(f);
        const old = await activated(f, activationOf(key.licenseId, { at: at(10) }));
        const again = activationOf(key.licenseId, {
          fingerprintDigest: old.fingerprintDigest,
          maxDevices: 1,
          at: at(100),
          heldSince: at(50),
        });
        const asked: Array<{ outcome: DeviceActivationOutcome; lapsed: readonly Device[] }> = [];

        const outcome = await f.devices.activate(again, (o, lapsed) => {
          asked.push({ outcome: o, lapsed });
          return NO_CHANGE;
        });

        const released: Device = { ...deviceOf(old), deactivatedAt: at(100), deactivationReason: 'lease_expired' };
        expect(outcome).toEqual({ kind: 'activated', device: deviceOf(again) });
        expect(asked).toEqual([{ outcome, lapsed: [released] }]);
        await expect(f.devices.findById(old.id)).resolves.toEqual(released);
        await expect(f.devices.findHolding(key.licenseId, old.fingerprintDigest, at(50))).resolves.toEqual(deviceOf(again));
      });

      it('writes the records recordsOf answers for the outcome, for a refusal too', async () => {
        const f = fixture();
        const key = await seedKey(f);
        const entryOf = (outcome: DeviceActivationOutcome) =>
          makeAuditEntry({ action: 'device.activated', keyId: key.id, details: { outcome: outcome.kind } });
        const recordsOf: RecordsOfActivation = (outcome) => ({ audit: [entryOf(outcome)], events: [] });

        await f.devices.activate(activationOf(key.licenseId, { maxDevices: 1, at: at(1) }), recordsOf);
        await f.devices.activate(activationOf(key.licenseId, { maxDevices: 1, at: at(2) }), recordsOf);

        const written = await f.audit.list({ keyId: key.id, limit: 10 });
        expect(written.map((e) => String(e.details?.outcome)).sort()).toEqual(['activated', 'limit_reached']);
      });
    });

    describe('activate, concurrently', () => {
      it('of activations racing for the free seats, exactly as many succeed as there were free seats', async () => {
        const f = fixture();
        const license = await licenseOf(f);
        await activated(f, activationOf(license, { maxDevices: 4 }));
        const racing = Array.from({ length: 8 }, (_, i) => activationOf(license, { maxDevices: 4, at: at(i + 1) }));

        const outcomes = await Promise.all(racing.map((a) => f.devices.activate(a, noRecords)));

        expect(outcomes.filter((o) => o.kind === 'activated')).toHaveLength(3);
        expect(outcomes.filter((o) => o.kind === 'limit_reached')).toEqual(
          Array.from({ length: 5 }, () => ({ kind: 'limit_reached', maxDevices: 4, active: 4 })),
        );
        expect(await f.devices.listByLicense(license)).toHaveLength(4);
      });

      it('of activations of one fingerprint racing, one activates and the others find it already active', async () => {
        const f = fixture();
        const license = await licenseOf(f);
        const digest = randomDigest();
        const racing = Array.from({ length: 6 }, (_, i) =>
          activationOf(license, { fingerprintDigest: digest, maxDevices: 5, at: at(i + 1) }),
        );

        const outcomes = await Promise.all(racing.map((a) => f.devices.activate(a, noRecords)));

        expect(outcomes.filter((o) => o.kind === 'activated')).toHaveLength(1);
        expect(outcomes.filter((o) => o.kind === 'already_active')).toHaveLength(5);
        const devices = await f.devices.listByLicense(license);
        expect(devices).toHaveLength(1);
        expect(outcomes.map((o) => (o.kind === 'limit_reached' ? null : o.device.id))).toEqual(racing.map(() => devices[0].id));
      });
    });

    describe('findHolding', () => {
      it("finds the license's device of that fingerprint while it is active and seen after heldSince", async () => {
        const f = fixture();
        const license = await licenseOf(f);
        const other = await licenseOf(f);
        const device = await activated(f, activationOf(license, { at: at(10) }));
        const digest = device.fingerprintDigest;

        await expect(f.devices.findHolding(license, digest, null)).resolves.toEqual(deviceOf(device));
        await expect(f.devices.findHolding(license, digest, at(9))).resolves.toEqual(deviceOf(device));
        await expect(f.devices.findHolding(license, digest, at(10))).resolves.toBeNull();
        await expect(f.devices.findHolding(license, digest, at(11))).resolves.toBeNull();
        await expect(f.devices.findHolding(other, digest, null)).resolves.toBeNull();
        await expect(f.devices.findHolding(license, randomDigest(), null)).resolves.toBeNull();
        // the exact digest only: no other case, no padding
        await expect(f.devices.findHolding(license, digest.toUpperCase(), null)).resolves.toBeNull();
        await expect(f.devices.findHolding(license, `${digest} `, null)).resolves.toBeNull();
      });

      it('finds it again once it is seen, and never after its deactivation', async () => {
        const f = fixture();
        const license = await licenseOf(f);
        const device = await activated(f, activationOf(license, { at: at(10) }));
        const digest = device.fingerprintDigest;

        await expect(f.devices.touch(device.id, at(30), at(30))).resolves.toBe(true);
        await expect(f.devices.findHolding(license, digest, at(20))).resolves.toEqual({ ...deviceOf(device), lastSeenAt: at(30) });

        await expect(f.devices.deactivate(device.id, 'sdk', at(40), NO_CHANGE)).resolves.toBe(true);
        await expect(f.devices.findHolding(license, digest, null)).resolves.toBeNull();
        await expect(f.devices.findHolding(license, digest, at(0))).resolves.toBeNull();
      });
    });

    describe('seatsHeld', () => {
      it('answers, for several licenses in one read, the license and digest of exactly the devices holding a seat', async () => {
        const f = fixture();
        const [one, two, three] = [await licenseOf(f), await licenseOf(f), await licenseOf(f)];
        const a = await activated(f, activationOf(one, { at: at(10) }));
        const b = await activated(f, activationOf(one, { at: at(30) }));
        const gone = await activated(f, activationOf(one, { at: at(40) }));
        await f.devices.deactivate(gone.id, 'operator', at(41), NO_CHANGE);
        const c = await activated(f, activationOf(two, { at: at(20) }));
        const d = await activated(f, activationOf(two, { at: at(50) }));
        const e = await activated(f, activationOf(three, { at: at(60) }));
        const seat = (device: DeviceActivation): HeldSeat => ({ licenseId: device.licenseId, digest: device.fingerprintDigest });

        expect(sorted(await f.devices.seatsHeld([one, two], null))).toEqual(sorted([a, b, c, d].map(seat)));
        // last seen at or before heldSince: no seat (c exactly at it)
        expect(sorted(await f.devices.seatsHeld([one, two], at(20)))).toEqual(sorted([b, d].map(seat)));
        expect(sorted(await f.devices.seatsHeld([two, three, one], at(45)))).toEqual(sorted([d, e].map(seat)));
        expect(await f.devices.seatsHeld([three], null)).toEqual([seat(e)]);
        await expect(f.devices.seatsHeld([three], at(60))).resolves.toEqual([]);
        await expect(f.devices.seatsHeld(['lic_unknown'], null)).resolves.toEqual([]);
        await expect(f.devices.seatsHeld([], null)).resolves.toEqual([]);
      });

      it('answers a seat held by a device of a rotated license under the license, whichever key is current', async () => {
        const f = fixture();
        const key = await seedKey(f);
        const device = await activated(f, activationOf(key.licenseId));
        await expect(f.keys.rotate(rotationOf(key), NO_RECORDS)).resolves.toBe(true);

        await expect(f.devices.seatsHeld([key.licenseId], null)).resolves.toEqual([
          { licenseId: key.licenseId, digest: device.fingerprintDigest },
        ]);
      });
    });

    describe('deactivate', () => {
      it('deactivates once, with its records; a second call answers false and writes none', async () => {
        const f = fixture();
        const key = await seedKey(f);
        const device = await activated(f, activationOf(key.licenseId, { at: at(1) }));
        const first = makeAuditEntry({ action: 'device.deactivated', keyId: key.id, at: at(5) });
        const second = makeAuditEntry({ action: 'device.deactivated', keyId: key.id, at: at(6) });

        await expect(f.devices.deactivate(device.id, 'operator', at(5), { audit: [first], events: [] })).resolves.toBe(true);
        await expect(f.devices.deactivate(device.id, 'sdk', at(6), { audit: [second], events: [] })).resolves.toBe(false);

        await expect(f.devices.findById(device.id)).resolves.toEqual({
          ...deviceOf(device),
          deactivatedAt: at(5),
          deactivationReason: 'operator',
        });
        expect((await f.audit.list({ keyId: key.id, limit: 10 })).map((e) => e.id)).toEqual([first.id]);
        // kept, with its digest, for the license's list
        expect(idsOf(await f.devices.listByLicense(key.licenseId))).toEqual([device.id]);
        await expect(f.devices.fingerprintDigestOf(device.id)).resolves.toBe(device.fingerprintDigest);
      });

      it('answers false for a device that does not exist', async () => {
        await expect(fixture().devices.deactivate('dev_unknown', 'sdk', T0, NO_CHANGE)).resolves.toBe(false);
      });

      it('frees the seat for the next activation', async () => {
        const f = fixture();
        const license = await licenseOf(f);
        const device = await activated(f, activationOf(license, { maxDevices: 1 }));
        await f.devices.deactivate(device.id, 'sdk', at(1), NO_CHANGE);
        await activated(f, activationOf(license, { maxDevices: 1, at: at(2) }));
        // the same fingerprint after its deactivation: a new device
        await expect(
          f.devices.activate(activationOf(license, { fingerprintDigest: device.fingerprintDigest, maxDevices: 2, at: at(3) }), noRecords),
        ).resolves.toMatchObject({ kind: 'activated' });
        expect(await f.devices.listByLicense(license)).toHaveLength(3);
      });
    });

    describe('touch', () => {
      it('moves last_seen_at to `at` only when it is older than `before`', async () => {
        const f = fixture();
        const device = await activated(f, activationOf(await licenseOf(f), { at: at(10) }));

        await expect(f.devices.touch(device.id, at(20), at(10))).resolves.toBe(false);
        expect((await f.devices.findById(device.id))?.lastSeenAt).toEqual(at(10));
        await expect(f.devices.touch(device.id, at(20), at(9))).resolves.toBe(false);
        expect((await f.devices.findById(device.id))?.lastSeenAt).toEqual(at(10));

        await expect(f.devices.touch(device.id, at(20), at(11))).resolves.toBe(true);
        await expect(f.devices.findById(device.id)).resolves.toEqual({ ...deviceOf(device), lastSeenAt: at(20) });
        await expect(f.devices.touch(device.id, at(25), at(20))).resolves.toBe(false);
        expect((await f.devices.findById(device.id))?.lastSeenAt).toEqual(at(20));
      });

      it('moves neither a deactivated device nor one that does not exist', async () => {
        const f = fixture();
        const device = await activated(f, activationOf(await licenseOf(f), { at: at(10) }));
        await f.devices.deactivate(device.id, 'sdk', at(11), NO_CHANGE);

        await expect(f.devices.touch(device.id, at(20), at(20))).resolves.toBe(false);
        expect((await f.devices.findById(device.id))?.lastSeenAt).toEqual(at(10));
        await expect(f.devices.touch('dev_unknown', at(20), at(20))).resolves.toBe(false);
      });
    });

    describe('lapsed and releaseLapsed', () => {
      it("lists the active devices last seen at or before their tier's heldSince, the longest unseen first, with the current key", async () => {
        const f = fixture();
        const research = await seedKey(f, { licenseType: 'research' });
        const free = await seedKey(f, { licenseType: 'free' });
        const rotation = rotationOf(research);
        await f.keys.rotate(rotation, NO_RECORDS);
        const a = await activated(f, activationOf(research.licenseId, { at: at(20) }));
        const b = await activated(f, activationOf(research.licenseId, { at: at(10) }));
        await activated(f, activationOf(research.licenseId, { at: at(40) }));
        const gone = await activated(f, activationOf(research.licenseId, { at: at(5) }));
        await f.devices.deactivate(gone.id, 'sdk', at(6), NO_CHANGE);
        const c = await activated(f, activationOf(free.licenseId, { at: at(15) }));
        const leases = [
          { licenseType: 'research' as const, heldSince: at(20) },
          { licenseType: 'free' as const, heldSince: at(30) },
        ];

        const lapsed = await f.devices.lapsed(leases, 10);

        expect(lapsed).toEqual([
          { device: deviceOf(b), keyId: rotation.successor.id, licenseType: 'research' },
          { device: deviceOf(c), keyId: free.id, licenseType: 'free' },
          { device: deviceOf(a), keyId: rotation.successor.id, licenseType: 'research' },
        ]);
        expect((await f.devices.lapsed(leases, 2)).map((l) => l.device.id)).toEqual([b.id, c.id]);
        // a tier with no lease given: its devices hold their seats
        expect((await f.devices.lapsed([leases[1]], 10)).map((l) => l.device.id)).toEqual([c.id]);
        await expect(f.devices.lapsed([], 10)).resolves.toEqual([]);
      });

      it('releases a device once, only while it is active and still last seen at or before heldSince', async () => {
        const f = fixture();
        const key = await seedKey(f);
        const device = await activated(f, activationOf(key.licenseId, { at: at(10) }));
        const entry = makeAuditEntry({ action: 'device.deactivated', keyId: key.id, at: at(50) });
        const records = { audit: [entry], events: [] };

        await expect(f.devices.releaseLapsed(device.id, at(9), at(50), records)).resolves.toBe(false);
        await expect(f.devices.findById(device.id)).resolves.toEqual(deviceOf(device));
        await expect(f.devices.releaseLapsed(device.id, at(10), at(50), records)).resolves.toBe(true);
        await expect(f.devices.releaseLapsed(device.id, at(10), at(60), records)).resolves.toBe(false);

        await expect(f.devices.findById(device.id)).resolves.toEqual({
          ...deviceOf(device),
          deactivatedAt: at(50),
          deactivationReason: 'lease_expired',
        });
        expect((await f.audit.list({ keyId: key.id, limit: 10 })).map((e) => e.id)).toEqual([entry.id]);
      });

      it('does not release a device seen since the lapse was read', async () => {
        const f = fixture();
        const device = await activated(f, activationOf(await licenseOf(f), { at: at(10) }));
        await f.devices.touch(device.id, at(30), at(30));
        await expect(f.devices.releaseLapsed(device.id, at(20), at(40), NO_CHANGE)).resolves.toBe(false);
        expect((await f.devices.findById(device.id))?.deactivatedAt).toBeNull();
      });
    });

    describe('reads and the seat override', () => {
      it("lists a license's devices only, finds one by id, and counts those not deactivated across licenses", async () => {
        const f = fixture();
        const one = await licenseOf(f);
        const two = await licenseOf(f);
        const a = await activated(f, activationOf(one, { at: at(1) }));
        const b = await activated(f, activationOf(one, { at: at(2) }));
        const c = await activated(f, activationOf(two, { at: at(3) }));
        await f.devices.deactivate(b.id, 'sdk', at(4), NO_CHANGE);

        expect(idsOf(await f.devices.listByLicense(one))).toEqual([a.id, b.id].sort());
        expect(await f.devices.listByLicense(two)).toEqual([deviceOf(c)]);
        await expect(f.devices.listByLicense('lic_unknown')).resolves.toEqual([]);
        await expect(f.devices.findById(c.id)).resolves.toEqual(deviceOf(c));
        await expect(f.devices.findById('dev_unknown')).resolves.toBeNull();
        await expect(f.devices.fingerprintDigestOf('dev_unknown')).resolves.toBeNull();
        await expect(f.devices.countNotDeactivated()).resolves.toBe(2);
      });

      it("keeps a license's max_devices override until it is removed, apart from other licenses", async () => {
        const f = fixture();
        const one = await licenseOf(f);
        const two = await licenseOf(f);

        await expect(f.devices.maxDevicesOverrideOf(one)).resolves.toBeNull();
        await f.devices.setMaxDevicesOverride(one, 3);
        await f.devices.setMaxDevicesOverride(two, 0);
        await expect(f.devices.maxDevicesOverrideOf(one)).resolves.toBe(3);
        await expect(f.devices.maxDevicesOverrideOf(two)).resolves.toBe(0);
        await f.devices.setMaxDevicesOverride(one, 7);
        await expect(f.devices.maxDevicesOverrideOf(one)).resolves.toBe(7);
        await f.devices.setMaxDevicesOverride(one, null);
        await expect(f.devices.maxDevicesOverrideOf(one)).resolves.toBeNull();
        await expect(f.devices.maxDevicesOverrideOf(two)).resolves.toBe(0);
      });
    });
  });
}
