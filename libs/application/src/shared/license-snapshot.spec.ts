import { BillingPeriod, type OfflineLicense, LicenseSigner, OfflineLicensePolicy, Quota } from '@svc/domain';
import { T0, makeApiKey } from '../../../../test/factories/domain.factory';
import { FORGOTTEN_TOGETHER, type LicenseSnapshot, MAX_KEPT_LICENSES, OfflineLicenses } from './license-snapshot';

/** Counts signatures; a token names its license's key and issue time. The signing key changes when `kid` is set. */
class CountingSigner extends LicenseSigner {
  signed = 0;
  kid = 'first';
  async sign(license: OfflineLicense): Promise<string> {
    this.signed += 1;
    return `${license.keyId}.${license.licenseType}.${license.monthlyLimit}.${license.issuedAt.getTime()}`;
  }
  async signingKeyAt(): Promise<string> {
    return this.kid;
  }
  async publicKeys() {
    return [];
  }
}

describe(OfflineLicenses.name, () => {
  const period = BillingPeriod.containing(T0);
  const snapshotOf = (limit: number | null, used = 0): LicenseSnapshot => ({
    licenseType: 'research',
    features: ['batch_inference'],
    quota: new Quota(limit, used, period),
    expiresAt: new Date('2027-01-01T00:00:00Z'),
    rotationRecommended: false,
  });
  const at = (ms: number) => new Date(T0.getTime() + ms);
  let signer: CountingSigner;
  let licenses: OfflineLicenses;
  beforeEach(() => {
    signer = new CountingSigner();
    licenses = new OfflineLicenses(new OfflineLicensePolicy(86_400), signer);
  });

  it('hands out the same token while the license says the same, for a hundredth of its lifetime; then signs again', async () => {
    const REUSE_MS = 864_000; // a day's lifetime
    const key = makeApiKey();
    const first = await licenses.sign(key, snapshotOf(50000, 1), T0);
    expect((await licenses.sign(key, snapshotOf(50000, 7), at(REUSE_MS - 1))).licenseToken).toBe(first.licenseToken);
    expect(signer.signed).toBe(1);
    const later = await licenses.sign(key, snapshotOf(50000, 7), at(REUSE_MS));
    expect(later.licenseToken).toBe(`${key.id}.research.50000.${at(REUSE_MS).getTime()}`);
    expect(signer.signed).toBe(2);
  });

  it('signs at once when what the license says changes (a new limit), and keeps answering the snapshot it was given', async () => {
    const key = makeApiKey();
    await licenses.sign(key, snapshotOf(50000), T0);
    const changed = await licenses.sign(key, snapshotOf(1234), at(1000));
    expect(changed.licenseToken).toBe(`${key.id}.research.1234.${at(1000).getTime()}`);
    expect(changed.quota.monthlyLimit).toBe(1234);
    expect(signer.signed).toBe(2);
  });

  it('signs at once when another signing key has taken over (a rotation), even while the license says the same', async () => {
    const key = makeApiKey();
    const first = await licenses.sign(key, snapshotOf(50000), T0);
    signer.kid = 'second';
    const renewed = await licenses.sign(key, snapshotOf(50000), at(1000));
    expect(renewed.licenseToken).not.toBe(first.licenseToken);
    expect(signer.signed).toBe(2);
    expect((await licenses.sign(key, snapshotOf(50000), at(2000))).licenseToken).toBe(renewed.licenseToken);
    expect(signer.signed).toBe(2);
  });

  it('keeps one license per key, and at most MAX_KEPT_LICENSES, forgetting the oldest FORGOTTEN_TOGETHER at once', async () => {
    const keys = Array.from({ length: MAX_KEPT_LICENSES + 1 }, () => makeApiKey());
    for (const key of keys) await licenses.sign(key, snapshotOf(50000), T0);
    expect(signer.signed).toBe(MAX_KEPT_LICENSES + 1);
    // the newest and every key after the forgotten ones are still kept: no signature
    for (const kept of [keys[MAX_KEPT_LICENSES], keys[FORGOTTEN_TOGETHER], keys[MAX_KEPT_LICENSES - 1]]) {
      await licenses.sign(kept, snapshotOf(50000), T0);
    }
    expect(signer.signed).toBe(MAX_KEPT_LICENSES + 1);
    // the oldest thousand were forgotten together: the first and the last of them sign again
    await licenses.sign(keys[0], snapshotOf(50000), T0);
    await licenses.sign(keys[FORGOTTEN_TOGETHER - 1], snapshotOf(50000), T0);
    expect(signer.signed).toBe(MAX_KEPT_LICENSES + 3);
  });

  it('a key signed again counts as new: it is forgotten after the keys signed before it', async () => {
    const keys = Array.from({ length: MAX_KEPT_LICENSES }, () => makeApiKey());
    for (const key of keys) await licenses.sign(key, snapshotOf(50000), T0);
    await licenses.sign(keys[0], snapshotOf(1234), T0); // new terms: signed again, now the newest
    await licenses.sign(makeApiKey(), snapshotOf(50000), T0); // one more than the most: the oldest thousand go
    const signed = signer.signed;
    await licenses.sign(keys[0], snapshotOf(1234), T0);
    expect(signer.signed).toBe(signed);
    await licenses.sign(keys[1], snapshotOf(50000), T0);
    expect(signer.signed).toBe(signed + 1);
  });
});
