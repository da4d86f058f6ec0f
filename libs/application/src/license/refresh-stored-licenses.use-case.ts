import { Injectable } from '@nestjs/common';
import { Clock, type LicenseToRefresh, StoredLicenseRepository } from '@svc/domain';
import { OfflineLicenses } from '../shared/license-snapshot';

/** What one round of the refresh job did. */
export interface LicenseRefreshRound {
  /** Licenses signed anew and stored. */
  readonly resigned: number;
  /** Licenses forgotten: their keys are revoked or expired. */
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
 * one signed, then keys that have none stored (installs from before the
 * stored licenses). The last two are looked for until a round finds fewer
 * than it could take: again whenever the signing key changes, and once per
 * process for the keys without one (each search reads the whole table).
 * Each license is claimed before it is signed, so instances running the job
 * together never sign one twice.
 */
@Injectable()
export class RefreshStoredLicenses {
  /** The signing key whose older licenses were all found re-signed; null: not yet searched. */
  private sweptFor: string | null = null;
  private backfilled = false;

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
    if (work.length < limit && !this.backfilled) {
      const missing = await this.stored.missing(now, limit - work.length);
      if (missing.length < limit - work.length) this.backfilled = true;
      work.push(...missing);
    }
    const round = { resigned: 0, forgotten: 0, skipped: 0 };
    for (const entry of work) round[await this.licenses.refresh(entry, now, LICENSE_CLAIM_MS)] += 1;
    return round;
  }
}
