import { Injectable } from '@nestjs/common';
import {
  ApiKey,
  BillingPeriod,
  type Device,
  DeviceRepository,
  LicenseSigner,
  type LicenseToRefresh,
  LicenseType,
  NO_DEVICE,
  type OfflineLicense,
  OfflineLicensePolicy,
  Quota,
  type StoredLicense,
  StoredLicenseRepository,
  TierCatalog,
  isLicenseKept,
  licenseTermsOf,
  seatHeldSince,
} from '@svc/domain';

/** What a key is entitled to right now: the body shared by validate and refresh. */
export interface LicenseSnapshot {
  readonly licenseType: LicenseType;
  readonly features: readonly string[];
  readonly quota: Quota;
  readonly expiresAt: Date;
  /** The key is old enough that rotating it is recommended (CONTRACT 16). */
  readonly rotationRecommended: boolean;
}

/** A snapshot with its signed offline license (CONTRACT 15), as validate and refresh answer it. */
export interface SignedLicenseSnapshot extends LicenseSnapshot {
  readonly licenseToken: string;
}

export function licenseSnapshotOf(
  key: ApiKey,
  catalog: TierCatalog,
  used: number,
  period: BillingPeriod,
  rotationRecommended = false,
): LicenseSnapshot {
  return {
    licenseType: key.licenseType,
    features: catalog.featuresOf(key.licenseType),
    quota: new Quota(key.monthlyLimitUnder(catalog), used, period),
    expiresAt: key.expiresAt,
    rotationRecommended,
  };
}

/** Why a license was signed on validate's or refresh's path rather than ahead (svc_license_signatures_total's `reason` on `path="request"`). */
export const ON_REQUEST_REASONS = ['none_stored', 'terms_changed', 'signing_key_retired', 'too_old'] as const;
export type OnRequestReason = (typeof ON_REQUEST_REASONS)[number];

/**
 * Hands out and signs offline licenses (CONTRACT 15) with each key's license
 * kept in the database (issue 40). A key's license is signed when its terms
 * change (`signAhead`: issue, rotation, tier, limit or expiry change) and
 * re-signed by the refresh job (`refresh`) past half its lifetime, when its
 * period ends or when another signing key has taken over; validate and
 * refresh hand the stored one out while the policy finds it usable
 * (OfflineLicensePolicy.isUsable). Otherwise they sign on the spot and store
 * it with a compare-and-set, handing out whatever won, so every instance
 * hands out the same token for the same terms. Nothing per key is kept in
 * process memory. A call naming a device (CONTRACT 23) gets a license with
 * the `device` claim, kept the same way beside the key's: signed ahead when
 * the device is activated (`signAheadForDevice`) and, for each device of the
 * license holding a seat, whenever the key's terms change; re-signed by the
 * job while the device holds its seat, and forgotten when it no longer does
 * (`forgetDevice` at deactivation, or the job).
 */
@Injectable()
export class OfflineLicenses {
  /** Licenses signed on validate's and refresh's path since start, by reason (the /metrics counter reads them). */
  readonly signedOnRequest: Record<OnRequestReason, number> = {
    none_stored: 0,
    terms_changed: 0,
    signing_key_retired: 0,
    too_old: 0,
  };
  /** Licenses signed ahead since start: at changes of terms and by the refresh job. */
  signedAhead = 0;

  constructor(
    private readonly policy: OfflineLicensePolicy,
    private readonly signer: LicenseSigner,
    private readonly stored: StoredLicenseRepository,
    private readonly catalog: TierCatalog,
    private readonly devices: DeviceRepository,
  ) {}

  /**
   * The snapshot with the key's license: the stored one when usable, else one signed now (and stored).
   * `stored`: the key's stored license naming no device as validate's one read found it (undefined: read it here).
   * `device`: the SHA-256 of the fingerprint the call named (CONTRACT 23), the `device` claim.
   */
  async handOut(
    key: ApiKey,
    snapshot: LicenseSnapshot,
    now: Date,
    device: string | null = null,
    stored?: StoredLicense | null,
  ): Promise<SignedLicenseSnapshot> {
    const license = this.policy.licenseOf(key, snapshot.features, snapshot.quota, now, device);
    const slot = device ?? NO_DEVICE;
    const current = device === null && stored !== undefined ? stored : await this.stored.find(key.id, slot);
    const published = current === null ? [] : (await this.signer.publicKeys(now)).map((k) => k.kid);
    if (current !== null && this.policy.isUsable(current, license, published)) return { ...snapshot, licenseToken: current.token };
    this.signedOnRequest[reasonFor(current, license, published)] += 1;
    const next = await this.signed(license, now);
    if (await this.stored.replace(key.id, current?.token ?? null, next, slot)) return { ...snapshot, licenseToken: next.token };
    // another instance stored one first: hand that one out when it is usable, so instances agree
    const winner = await this.stored.find(key.id, slot);
    const kids = (await this.signer.publicKeys(now)).map((k) => k.kid);
    return { ...snapshot, licenseToken: winner !== null && this.policy.isUsable(winner, license, kids) ? winner.token : next.token };
  }

  /**
   * Signs and stores `key`'s license as its terms are at `now` (they were
   * just written), whatever was stored, and the license naming each device
   * of its license that holds a seat (a rotated key's successor shares them).
   * Never fails the write it follows: a license it could not store (the
   * database away a moment) is signed by the next validate instead. Answers
   * whether they were all stored.
   */
  async signAhead(key: ApiKey, now: Date): Promise<boolean> {
    try {
      await this.put(key, NO_DEVICE, now);
      for (const { digest } of await this.devices.seatsHeld([key.licenseId], this.seatHeldSince(key, now)))
        await this.put(key, digest, now);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Signs and stores `key`'s license naming `device` (its fingerprint's
   * digest), just activated, so that the device's named calls hand it out
   * without signing. Never fails the activation: a license it could not
   * store is signed by the device's next named call. Answers whether it was stored.
   */
  async signAheadForDevice(key: ApiKey, device: string, now: Date): Promise<boolean> {
    try {
      await this.put(key, device, now);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Forgets the licenses naming `device`, just deactivated, of every key of
   * its license. Never fails the deactivation: a license left behind is never
   * handed out (a call naming the device is refused) and the job forgets it
   * when it comes due. Answers whether they were forgotten.
   */
  async forgetDevice(device: Device): Promise<boolean> {
    try {
      const digest = await this.devices.fingerprintDigestOf(device.id);
      if (digest !== null) await this.stored.forgetDevice(device.licenseId, digest);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * The refresh job's step for one license: forgets it when it is no longer
   * kept (isLicenseKept: its key can no longer be validated, all the key's
   * licenses; or the device it names holds no seat, that one); otherwise
   * claims it (when one is stored) and re-signs it with the key's terms at
   * `now`, naming its device. `claimMs`: how long the claim holds it from
   * other instances. Answers what it did (`skipped`: another instance
   * claimed or replaced it first).
   */
  async refresh({ key, device, stored }: LicenseToRefresh, now: Date, claimMs: number): Promise<'resigned' | 'forgotten' | 'skipped'> {
    const keyValid = key.verify(now).ok;
    const holdsSeat = keyValid && device !== NO_DEVICE && (await this.holdsSeat(key, device, now));
    if (!isLicenseKept(keyValid, device, holdsSeat)) {
      await this.stored.forget(key.id, keyValid ? device : undefined);
      return 'forgotten';
    }
    if (stored !== null && !(await this.stored.claim(key.id, device, stored.refreshAt, new Date(now.getTime() + claimMs)))) {
      return 'skipped';
    }
    const next = await this.signed(this.licenseOf(key, now, device), now);
    // the claim moved refreshAt: compare on the token, which only a signing changes
    if (!(await this.stored.replace(key.id, stored?.token ?? null, next, device))) return 'skipped';
    this.signedAhead += 1;
    return 'resigned';
  }

  /**
   * The refresh job's work for the devices of these keys' licenses that hold a seat at `now` and have
   * no license stored under their key (devices activated before their licenses were signed ahead, or
   * under another key of the license): each to be signed by `refresh`. One read of devices per lease
   * the keys' tiers give (a window of the job's walk is a few), not one per key.
   */
  async unsignedDevicesOf(keys: readonly ApiKey[], now: Date): Promise<LicenseToRefresh[]> {
    const bySince = new Map<number | null, ApiKey[]>();
    for (const key of keys) {
      const since = this.seatHeldSince(key, now)?.getTime() ?? null;
      const sharing = bySince.get(since) ?? [];
      sharing.push(key);
      bySince.set(since, sharing);
    }
    const work: LicenseToRefresh[] = [];
    for (const [since, sharing] of bySince) {
      const seats = await this.devices.seatsHeld(
        [...new Set(sharing.map((key) => key.licenseId))],
        since === null ? null : new Date(since),
      );
      for (const key of sharing) {
        for (const seat of seats) {
          if (seat.licenseId !== key.licenseId) continue;
          if ((await this.stored.find(key.id, seat.digest)) === null) work.push({ key, device: seat.digest, stored: null });
        }
      }
    }
    return work;
  }

  /** The `kid` that signs at `now` (the refresh job re-signs licenses signed by any other). */
  signingKeyAt(now: Date): Promise<string> {
    return this.signer.signingKeyAt(now);
  }

  /** Signs and stores `key`'s license naming `device` (NO_DEVICE: none) as its terms are at `now`, whatever was stored. */
  private async put(key: ApiKey, device: string, now: Date): Promise<void> {
    await this.stored.put(key.id, await this.signed(this.licenseOf(key, now, device), now), device);
    this.signedAhead += 1;
  }

  /** Whether the device of that digest holds a seat of `key`'s license at `now` (under the lease of `key`'s tier). */
  private async holdsSeat(key: ApiKey, device: string, now: Date): Promise<boolean> {
    return (await this.devices.findHolding(key.licenseId, device, this.seatHeldSince(key, now))) !== null;
  }

  /** Since when a device of `key`'s license must have been seen to hold a seat at `now` (its tier's lease; null: none). */
  private seatHeldSince(key: ApiKey, now: Date): Date | null {
    return seatHeldSince(this.catalog.devicePolicyOf(key.licenseType), now);
  }

  private licenseOf(key: ApiKey, now: Date, device: string = NO_DEVICE): OfflineLicense {
    return licenseAt(this.policy, this.catalog, key, now, device);
  }

  private signed(license: OfflineLicense, now: Date): Promise<StoredLicense> {
    return signedForStore(this.policy, this.signer, license, now);
  }
}

/** `key`'s license naming `device` (its fingerprint's digest; NO_DEVICE: none) as its terms are at `now`, not yet signed. */
export function licenseAt(policy: OfflineLicensePolicy, catalog: TierCatalog, key: ApiKey, now: Date, device = NO_DEVICE): OfflineLicense {
  const quota = new Quota(key.monthlyLimitUnder(catalog), 0, BillingPeriod.containing(now));
  return policy.licenseOf(key, catalog.featuresOf(key.licenseType), quota, now, device === NO_DEVICE ? null : device);
}

/**
 * `license` signed with the signing key of `now`, as it is stored: refreshed from half its lifetime
 * on, a random tenth later (licenses signed together are re-signed apart).
 */
export async function signedForStore(
  policy: OfflineLicensePolicy,
  signer: LicenseSigner,
  license: OfflineLicense,
  now: Date,
): Promise<StoredLicense> {
  const kid = await signer.signingKeyAt(now);
  return policy.storedOf(license, await signer.sign(license), kid, Math.random());
}

function reasonFor(stored: StoredLicense | null, license: OfflineLicense, published: readonly string[]): OnRequestReason {
  if (stored === null) return 'none_stored';
  if (stored.terms !== licenseTermsOf(license)) return 'terms_changed';
  if (!published.includes(stored.kid)) return 'signing_key_retired';
  return 'too_old';
}
