import { BillingPeriod, FixedClock } from '@svc/domain';
import {
  InMemoryApiKeyRepository,
  InMemoryAuditLog,
  InMemoryDeviceRepository,
  type InMemoryStoredLicenseRepository,
} from '../../../../test/in-memory';
import { CountingSigner, offlineLicensesOver } from '../../../../test/factories/license-signers';
import { T0, makeApiKey, revokeAlone, shippedTierCatalog } from '../../../../test/factories/domain.factory';
import { RefreshStoredLicenses } from '../license/refresh-stored-licenses.use-case';
import { type LicenseSnapshot, OfflineLicenses, licenseSnapshotOf } from './license-snapshot';

describe(OfflineLicenses.name, () => {
  const TTL_S = 86_400;
  const at = (ms: number) => new Date(T0.getTime() + ms);
  const catalog = shippedTierCatalog();
  const snapshotOf = (key = makeApiKey(), now = T0): LicenseSnapshot => licenseSnapshotOf(key, catalog, 7, BillingPeriod.containing(now));
  let keys: InMemoryApiKeyRepository;
  let signer: CountingSigner;
  let licenses: OfflineLicenses;
  let stored: InMemoryStoredLicenseRepository;
  let devices: InMemoryDeviceRepository;

  beforeEach(() => {
    const audit = new InMemoryAuditLog();
    keys = new InMemoryApiKeyRepository(audit);
    devices = new InMemoryDeviceRepository(keys, audit);
    signer = new CountingSigner();
    ({ licenses, stored } = offlineLicensesOver(keys, signer, TTL_S, devices));
  });

  it('signs a license ahead at a change of terms, and validate hands that one out without signing', async () => {
    const key = makeApiKey({ licenseType: 'research' });
    expect(await licenses.signAhead(key, T0)).toBe(true);
    expect(signer.signed).toBe(1);
    const kept = await stored.find(key.id);
    expect(kept).toMatchObject({ kid: 'first', signedAt: T0, token: `first.${key.id}.research.50000.${T0.getTime()}` });
    // the refresh point: half a lifetime plus up to a tenth
    expect(kept!.refreshAt.getTime() - T0.getTime()).toBeGreaterThanOrEqual(TTL_S * 500);
    expect(kept!.refreshAt.getTime() - T0.getTime()).toBeLessThanOrEqual(TTL_S * 600);

    const answer = await licenses.handOut(key, snapshotOf(key, at(60_000)), at(60_000), null, kept);
    expect(answer.licenseToken).toBe(kept!.token);
    // read here when the caller's read did not look
    expect((await licenses.handOut(key, snapshotOf(key), at(70_000))).licenseToken).toBe(kept!.token);
    expect(signer.signed).toBe(1);
    expect(licenses.signedOnRequest).toEqual({ none_stored: 0, terms_changed: 0, signing_key_retired: 0, too_old: 0 });
  });

  it('signs on the spot, stores and counts why, when none is stored, its terms changed, its key is retired or it is too old', async () => {
    const key = makeApiKey({ licenseType: 'research' });
    const first = await licenses.handOut(key, snapshotOf(key), T0, null, null);
    expect(first.licenseToken).toBe(`first.${key.id}.research.50000.${T0.getTime()}`);
    expect((await stored.find(key.id))?.token).toBe(first.licenseToken);

    const upgraded = key.with({ licenseType: 'commercial' });
    const changed = await licenses.handOut(upgraded, snapshotOf(upgraded), at(1000), null, await stored.find(key.id));
    expect(changed.licenseToken).toBe(`first.${key.id}.commercial.${catalog.monthlyLimitOf('commercial')}.${at(1000).getTime()}`);

    signer.kid = 'second';
    signer.published = ['second'];
    const resigned = await licenses.handOut(upgraded, snapshotOf(upgraded), at(2000), null, await stored.find(key.id));
    expect(resigned.licenseToken.startsWith('second.')).toBe(true);

    const late = at(2000 + TTL_S * 750);
    const old = await licenses.handOut(upgraded, snapshotOf(upgraded, late), late, null, await stored.find(key.id));
    expect(old.licenseToken).toBe(`second.${key.id}.commercial.${catalog.monthlyLimitOf('commercial')}.${late.getTime()}`);

    expect(licenses.signedOnRequest).toEqual({ none_stored: 1, terms_changed: 1, signing_key_retired: 1, too_old: 1 });
    expect(signer.signed).toBe(4);
  });

  it('keeps handing out a license of the previous signing key while that key is still published (the job re-signs it)', async () => {
    const key = makeApiKey();
    await licenses.signAhead(key, T0);
    signer.kid = 'second';
    signer.published = ['second', 'first'];
    const answer = await licenses.handOut(key, snapshotOf(key), at(1000), null, await stored.find(key.id));
    expect(answer.licenseToken.startsWith('first.')).toBe(true);
    expect(signer.signed).toBe(1);
  });

  it('hands out what another instance stored first when it lost the compare-and-set', async () => {
    const key = makeApiKey();
    const seen = await stored.find(key.id); // none yet, as this instance read it
    await licenses.signAhead(key, T0); // another instance stores first
    const winner = (await stored.find(key.id))!.token;
    const answer = await licenses.handOut(key, snapshotOf(key), at(1000), null, seen);
    expect(answer.licenseToken).toBe(winner);
    expect((await stored.find(key.id))!.token).toBe(winner);
  });

  it("keeps a license naming a device beside the key's: signed ahead at activation, then handed out without signing", async () => {
    const key = makeApiKey();
    await licenses.signAhead(key, T0);
    const before = await stored.find(key.id);
    const device = 'd'.repeat(64);
    expect(await licenses.signAheadForDevice(key, device, at(500))).toBe(true);
    const ahead = await stored.find(key.id, device);
    expect(ahead?.token).not.toBe(before!.token);
    expect(await stored.find(key.id)).toEqual(before);
    expect((await licenses.handOut(key, snapshotOf(key), at(1000), device, before)).licenseToken).toBe(ahead!.token);
    expect(licenses.signedOnRequest).toEqual({ none_stored: 0, terms_changed: 0, signing_key_retired: 0, too_old: 0 });
    expect(signer.signed).toBe(2);
  });

  it("signs a device's license at its first named call when none was stored (one activated before licenses were signed ahead)", async () => {
    const key = makeApiKey();
    const device = 'd'.repeat(64);
    const named = await licenses.handOut(key, snapshotOf(key), at(1000), device);
    expect((await stored.find(key.id, device))?.token).toBe(named.licenseToken);
    expect(licenses.signedOnRequest.none_stored).toBe(1);
  });

  it("re-signs the licenses of the license's devices holding a seat when the key's terms change, the successor's too", async () => {
    const key = makeApiKey({ licenseType: 'research' });
    await keys.insert(key);
    const activation = { licenseId: key.licenseId, name: null, platform: null, at: T0, maxDevices: null, heldSince: null };
    await devices.activate({ ...activation, id: 'dev_1', fingerprintDigest: 'a'.repeat(64) }, () => ({ audit: [], events: [] }));
    await devices.activate({ ...activation, id: 'dev_2', fingerprintDigest: 'b'.repeat(64) }, () => ({ audit: [], events: [] }));
    await devices.deactivate('dev_2', 'operator', T0, { audit: [], events: [] });

    const upgraded = key.with({ licenseType: 'commercial' });
    expect(await licenses.signAhead(upgraded, at(1000))).toBe(true);
    expect(signer.signed).toBe(2);
    expect(await stored.find(key.id, 'b'.repeat(64))).toBeNull();
    const named = await licenses.handOut(upgraded, snapshotOf(upgraded, at(2000)), at(2000), 'a'.repeat(64));
    expect(named.licenseToken).toBe(`first.${key.id}.commercial.${catalog.monthlyLimitOf('commercial')}.${at(1000).getTime()}`);

    // a rotated key's successor shares the license's devices: its slot for each is signed under its own id
    const successor = makeApiKey({ id: 'key_successor', licenseId: key.licenseId });
    await keys.insert(successor);
    await licenses.signAhead(successor, at(3000));
    expect((await stored.find('key_successor', 'a'.repeat(64)))?.signedAt).toEqual(at(3000));
    expect(licenses.signedOnRequest).toEqual({ none_stored: 0, terms_changed: 0, signing_key_retired: 0, too_old: 0 });

    // deactivation forgets the device's licenses under every key of the license
    expect(await licenses.forgetDevice((await devices.findById('dev_1'))!)).toBe(true);
    expect(await stored.find(key.id, 'a'.repeat(64))).toBeNull();
    expect(await stored.find('key_successor', 'a'.repeat(64))).toBeNull();
    expect(await stored.find(key.id)).not.toBeNull();
  });

  it('never fails the write it follows: a license it cannot store is left to validate', async () => {
    const key = makeApiKey();
    stored.put = () => Promise.reject(new Error('database away'));
    stored.forgetDevice = () => Promise.reject(new Error('database away'));
    const activation = { licenseId: key.licenseId, name: null, platform: null, at: T0, maxDevices: null, heldSince: null };
    await devices.activate({ ...activation, id: 'dev_1', fingerprintDigest: 'd'.repeat(64) }, () => ({ audit: [], events: [] }));
    expect(await licenses.signAhead(key, T0)).toBe(false);
    expect(await licenses.signAheadForDevice(key, 'd'.repeat(64), T0)).toBe(false);
    expect(await licenses.forgetDevice((await devices.findById('dev_1'))!)).toBe(false);
  });
});

describe(RefreshStoredLicenses.name, () => {
  const TTL_S = 86_400;
  const at = (ms: number) => new Date(T0.getTime() + ms);
  let keys: InMemoryApiKeyRepository;
  let signer: CountingSigner;
  let licenses: OfflineLicenses;
  let stored: InMemoryStoredLicenseRepository;
  let clock: FixedClock;
  let job: RefreshStoredLicenses;
  let devices: InMemoryDeviceRepository;

  beforeEach(() => {
    const audit = new InMemoryAuditLog();
    keys = new InMemoryApiKeyRepository(audit);
    devices = new InMemoryDeviceRepository(keys, audit);
    signer = new CountingSigner();
    ({ licenses, stored } = offlineLicensesOver(keys, signer, TTL_S, devices));
    clock = new FixedClock(T0);
    job = new RefreshStoredLicenses(stored, licenses, clock);
  });

  it('re-signs licenses past their refresh point, at most `limit` a round, and nothing before', async () => {
    const all = [makeApiKey(), makeApiKey(), makeApiKey()];
    for (const key of all) {
      await keys.insert(key);
      await licenses.signAhead(key, T0);
    }
    expect(await job.execute(10)).toEqual({ resigned: 0, forgotten: 0, skipped: 0 });
    clock.set(at(TTL_S * 600));
    expect(await job.execute(2)).toEqual({ resigned: 2, forgotten: 0, skipped: 0 });
    expect(await job.execute(2)).toEqual({ resigned: 1, forgotten: 0, skipped: 0 });
    for (const key of all) expect((await stored.find(key.id))!.signedAt).toEqual(clock.now());
    expect(licenses.signedAhead).toBe(6);
  });

  it('re-signs the licenses of a signing key that no longer signs, then stops looking', async () => {
    const key = makeApiKey();
    await keys.insert(key);
    await licenses.signAhead(key, T0);
    signer.kid = 'second';
    clock.set(at(1000));
    expect(await job.execute(10)).toMatchObject({ resigned: 1 });
    expect((await stored.find(key.id))!.kid).toBe('second');
    expect(await job.execute(10)).toMatchObject({ resigned: 0 });
  });

  it('forgets the licenses of revoked or expired keys, and skips one another instance claimed', async () => {
    const revoked = makeApiKey();
    const claimed = makeApiKey();
    for (const key of [revoked, claimed]) {
      await keys.insert(key);
      await licenses.signAhead(key, T0);
    }
    await revokeAlone(keys, revoked.id, at(1000));
    clock.set(at(TTL_S * 600));
    const seen = (await stored.find(claimed.id))!.refreshAt;
    expect(await stored.claim(claimed.id, '', seen, at(TTL_S * 600 + 60_000))).toBe(true);
    expect(await job.execute(10)).toEqual({ resigned: 0, forgotten: 1, skipped: 0 });
    expect(await stored.find(revoked.id)).toBeNull();
    // past the other instance's claim, this one re-signs it
    clock.set(at(TTL_S * 600 + 60_000));
    expect(await job.execute(10)).toEqual({ resigned: 1, forgotten: 0, skipped: 0 });
  });

  it('re-signs a due license naming a device that holds a seat, with the `device` claim, and forgets one whose device holds none', async () => {
    const key = makeApiKey();
    await keys.insert(key);
    const activation = { licenseId: key.licenseId, name: null, platform: null, at: T0, maxDevices: null, heldSince: null };
    const [active, gone] = ['a'.repeat(64), 'b'.repeat(64)];
    await devices.activate({ ...activation, id: 'dev_1', fingerprintDigest: active }, () => ({ audit: [], events: [] }));
    await devices.activate({ ...activation, id: 'dev_2', fingerprintDigest: gone }, () => ({ audit: [], events: [] }));
    await licenses.signAhead(key, T0);
    // deactivated behind the stored licenses' back (as if the forget at deactivation had failed)
    await devices.deactivate('dev_2', 'sdk', at(1000), { audit: [], events: [] });
    clock.set(at(TTL_S * 600));
    expect(await job.execute(10)).toEqual({ resigned: 2, forgotten: 1, skipped: 0 });
    expect(await stored.find(key.id, gone)).toBeNull();
    expect((await stored.find(key.id))!.signedAt).toEqual(clock.now());
    const resigned = (await stored.find(key.id, active))!;
    expect(resigned.signedAt).toEqual(clock.now());
    expect(JSON.parse(resigned.terms)).toContain(active);
    // validate hands the re-signed one out, signing nothing
    const snapshot = licenseSnapshotOf(key, shippedTierCatalog(), 0, BillingPeriod.containing(clock.now()));
    expect((await licenses.handOut(key, snapshot, clock.now(), active)).licenseToken).toBe(resigned.token);
    expect(licenses.signedOnRequest.none_stored + licenses.signedOnRequest.terms_changed).toBe(0);
  });

  it('signs, in its walk of the keys, the licenses of devices holding a seat that have none stored (once per process)', async () => {
    const key = makeApiKey();
    await keys.insert(key);
    const activation = { licenseId: key.licenseId, name: null, platform: null, at: T0, maxDevices: null, heldSince: null };
    const [active, gone] = ['c'.repeat(64), 'd'.repeat(64)];
    await devices.activate({ ...activation, id: 'dev_3', fingerprintDigest: active }, () => ({ audit: [], events: [] }));
    await devices.activate({ ...activation, id: 'dev_4', fingerprintDigest: gone }, () => ({ audit: [], events: [] }));
    await devices.deactivate('dev_4', 'sdk', at(500), { audit: [], events: [] });
    await licenses.signAhead(key, T0);
    // as on an install from before device licenses were signed ahead
    await stored.forget(key.id, active);
    clock.set(at(1000));
    expect(await job.execute(10)).toEqual({ resigned: 1, forgotten: 0, skipped: 0 });
    expect((await stored.find(key.id, active))!.signedAt).toEqual(clock.now());
    expect(await stored.find(key.id, gone)).toBeNull();
    // the walk is done for this process
    await stored.forget(key.id, active);
    expect(await job.execute(10)).toEqual({ resigned: 0, forgotten: 0, skipped: 0 });
  });

  it("forgets every license of a key that can no longer be validated, its devices' too", async () => {
    const key = makeApiKey();
    await keys.insert(key);
    const activation = { licenseId: key.licenseId, name: null, platform: null, at: T0, maxDevices: null, heldSince: null };
    await devices.activate({ ...activation, id: 'dev_1', fingerprintDigest: 'a'.repeat(64) }, () => ({ audit: [], events: [] }));
    await licenses.signAhead(key, T0);
    await revokeAlone(keys, key.id, at(1000));
    clock.set(at(TTL_S * 600));
    expect((await job.execute(10)).resigned).toBe(0);
    expect(await stored.find(key.id, 'a'.repeat(64))).toBeNull();
    expect(await stored.find(key.id)).toBeNull();
  });

  it('claims a due device license before re-signing it: of two instances, one signs it', async () => {
    const key = makeApiKey();
    await keys.insert(key);
    const device = 'a'.repeat(64);
    const activation = { licenseId: key.licenseId, name: null, platform: null, at: T0, maxDevices: null, heldSince: null };
    await devices.activate({ ...activation, id: 'dev_1', fingerprintDigest: device }, () => ({ audit: [], events: [] }));
    await licenses.signAheadForDevice(key, device, T0);
    clock.set(at(TTL_S * 600));
    const seen = { key, device, stored: await stored.find(key.id, device) };
    expect(await licenses.refresh(seen, clock.now(), 60_000)).toBe('resigned');
    expect(await licenses.refresh(seen, clock.now(), 60_000)).toBe('skipped');
  });
});
