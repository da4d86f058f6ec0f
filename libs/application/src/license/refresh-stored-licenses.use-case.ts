import { Injectable } from '@nestjs/common';
import { Clock, type LicenseToRefresh, NO_DEVICE, StoredLicenseRepository } from '@svc/domain';
import { OfflineLicenses } from '../shared/license-snapshot';

/** What one round of the refresh job did. */
export interface LicenseRefreshRound {
  /** Licenses signed anew and stored. */
  readonly resigned: number;
  /** Licenses forgotten: their keys are revoked or expired, or the devices they name hold no seat. */
  readonly forgotten: number;
  /** Licenses another instance claimed or replaced first. */
  readonly skipped: number;
}

/** How long a claim keeps a license from the other instances' jobs: far longer than one round takes. */
export const LICENSE_CLAIM_MS = 60_000;

/**
 * The refresh job's round (issue 40): up to `limit` licenses re-signed, those
 * due first (past half their lifetime, their period ended, their key expired:
 * StoredLicense.refreshAt), then those a signing key other than the current
 * one signed (looked for until a round finds fewer than it could take, and
 * again whenever the signing key changes; an indexed read), then keys that
 * have none stored, and devices holding a seat with none stored under a
 * valid key of their license (installs from before the stored licenses, and
 * devices activated before their licenses were signed ahead): once per
 * process the job walks every key in id order, a window a round of at most
 * what the round has left (a window's keys bring their devices, so a round
 * may sign a few more than `limit`).
 * A license naming a device is re-signed like the key's while the device
 * holds its seat, and forgotten once it holds none (OfflineLicenses.refresh).
 * Each license is claimed before it is signed, so instances running the job
 * together never sign one twice.
 */
@Injectable()
export class RefreshStoredLicenses {
  /** The signing key whose older licenses were all found re-signed; null: not yet searched. */
  private sweptFor: string | null = null;
  /** The last key id the walk for keys without a license reached ('' before the first); null once it has walked them all. */
  private walkedTo: string | null = '';

  constructor(
    private readonly stored: StoredLicenseRepository,
    private readonly licenses: OfflineLicenses,
    private readonly clock: Clock,
  ) {}

  async execute(limit: number): Promise<LicenseRefreshRound> {
    const now = this.clock.now();
    const work: LicenseToRefresh[] = await this.stored.due(now, limit);
    const kid = await this.licenses.signingKeyAt(now);
    if (work.length < limit && this.sweptFor !== kid) {
      const others = (await this.stored.signedByOther(kid, limit - work.length)).filter((o) => !work.some((w) => w.key.id === o.key.id));
      if (others.length < limit - work.length) this.sweptFor = kid;
      work.push(...others);
    }
    if (work.length < limit && this.walkedTo !== null) {
      // a window of keys a round (at most what the round has left), its devices read together, so the walk costs little at any key count
      const window = await this.stored.keysAfter(this.walkedTo, limit - work.length);
      this.walkedTo = window.length < limit - work.length ? null : window[window.length - 1].key.id;
      const valid = window.filter(({ key }) => key.verify(now).ok);
      for (const { key, hasLicense } of valid) if (!hasLicense) work.push({ key, device: NO_DEVICE, stored: null });
      const keys = valid.map(({ key }) => key);
      work.push(...(await this.licenses.unsignedDevicesOf(keys, now)));
    }
    const round = { resigned: 0, forgotten: 0, skipped: 0 };
    for (const entry of work) round[await this.licenses.refresh(entry, now, LICENSE_CLAIM_MS)] += 1;
    return round;
  }
}
