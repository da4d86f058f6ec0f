import { Injectable } from '@nestjs/common';
import {
  ApiKey,
  BillingPeriod,
  LicenseSigner,
  LicenseType,
  OfflineLicensePolicy,
  type LicenseTerms,
  Quota,
  TierCatalog,
  termsOf,
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

/** The most keys whose last signed license is kept for reuse (the oldest is forgotten first). */
export const MAX_KEPT_LICENSES = 10_000;

/**
 * How many of the oldest are forgotten together once the most are kept: one
 * pass over the Map's oldest entries per thousand new licenses. Forgetting one
 * at a time made every signature pay for a walk: the Map's iterator steps over
 * the slots of every entry deleted since its last rehash.
 */
export const FORGOTTEN_TOGETHER = 1_000;

/** A key's last signed license: its token, and its terms to tell whether it may be handed out again. */
interface SignedLicense {
  readonly terms: LicenseTerms;
  readonly token: string;
  /** The key that signed it: once another key signs, the license is signed anew. */
  readonly kid: string;
}

/**
 * Signs what a snapshot says into an offline license. A key's last signed
 * license is handed out again while it says exactly the same and is younger
 * than the policy's `reuseMs` (a hundredth of its lifetime, at most an hour):
 * any change of what it says (tier, limit, period, expiry) is signed at once, so a token never outlives a change of
 * terms. Nor is it handed out once another signing key has taken over
 * (CONTRACT 19: after a rotation, the new key signs from its publish delay on).
 * One signature costs more CPU than the rest of a validate.
 */
@Injectable()
export class OfflineLicenses {
  private readonly kept = new Map<string, SignedLicense>();

  constructor(
    private readonly policy: OfflineLicensePolicy,
    private readonly signer: LicenseSigner,
  ) {}

  /** `device`: the SHA-256 of the fingerprint the call named (CONTRACT 23), the `device` claim; kept apart per device. */
  async sign(key: ApiKey, snapshot: LicenseSnapshot, now: Date, device: string | null = null): Promise<SignedLicenseSnapshot> {
    const license = this.policy.licenseOf(key, snapshot.features, snapshot.quota, now, device);
    const kid = await this.signer.signingKeyAt(now);
    const keptAs = device === null ? key.id : `${key.id}/${device}`;
    const kept = this.kept.get(keptAs);
    if (kept !== undefined && kept.kid === kid && this.policy.isReusable(kept.terms, license))
      return { ...snapshot, licenseToken: kept.token };
    const token = await this.signer.sign(license);
    this.keep(keptAs, { terms: termsOf(license), token, kid });
    return { ...snapshot, licenseToken: token };
  }

  private keep(keyId: string, signed: SignedLicense): void {
    this.kept.delete(keyId);
    if (this.kept.size >= MAX_KEPT_LICENSES) {
      let forgotten = 0;
      for (const oldest of this.kept.keys()) {
        this.kept.delete(oldest);
        if (++forgotten === FORGOTTEN_TOGETHER) break;
      }
    }
    this.kept.set(keyId, signed);
  }
}
