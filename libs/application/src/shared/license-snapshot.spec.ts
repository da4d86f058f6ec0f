import { BillingPeriod, FixedClock } from '@svc/domain';
import { InMemoryApiKeyRepository, InMemoryAuditLog, type InMemoryStoredLicenseRepository } from '../../../../test/in-memory';
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

  beforeEach(() => {
    keys = new InMemoryApiKeyRepository(new InMemoryAuditLog());
    signer = new CountingSigner();
    ({ licenses, stored } = offlineLicensesOver(keys, signer, TTL_S));
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

  it("keeps a license naming a device beside the key's: signed at its first call, then handed out", async () => {
    const key = makeApiKey();
    await licenses.signAhead(key, T0);
    const before = await stored.find(key.id);
    const device = 'd'.repeat(64);
    const named = await licenses.handOut(key, snapshotOf(key), at(1000), device, before);
    expect(named.licenseToken).not.toBe(before!.token);
    expect((await stored.find(key.id, device))?.token).toBe(named.licenseToken);
    expect(await stored.find(key.id)).toEqual(before);
    expect((await licenses.handOut(key, snapshotOf(key), at(2000), device, before)).licenseToken).toBe(named.licenseToken);
    expect(licenses.signedOnRequest.none_stored).toBe(1);
    expect(signer.signed).toBe(2);
  });

  it('never fails the write it follows: a license it cannot store is left to validate', async () => {
    const key = makeApiKey();
    stored.put = () => Promise.reject(new Error('database away'));
    expect(await licenses.signAhead(key, T0)).toBe(false);
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

  beforeEach(() => {
    keys = new InMemoryApiKeyRepository(new InMemoryAuditLog());
    signer = new CountingSigner();
    ({ licenses, stored } = offlineLicensesOver(keys, signer, TTL_S));
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

  it('forgets a due license naming a device rather than re-signing it (the device may be gone)', async () => {
    const key = makeApiKey();
    await keys.insert(key);
    await licenses.signAhead(key, T0);
    const device = 'e'.repeat(64);
    await licenses.handOut(key, licenseSnapshotOf(key, shippedTierCatalog(), 0, BillingPeriod.containing(T0)), T0, device);
    clock.set(at(TTL_S * 600));
    expect(await job.execute(10)).toEqual({ resigned: 1, forgotten: 1, skipped: 0 });
    expect(await stored.find(key.id, device)).toBeNull();
    expect((await stored.find(key.id))!.signedAt).toEqual(clock.now());
  });
});
