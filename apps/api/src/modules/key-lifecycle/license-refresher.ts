import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { type LicenseRefreshRound, ON_REQUEST_REASONS, OfflineLicenses, RefreshStoredLicenses } from '@svc/application';
import { AppConfig } from '@svc/config';
import { Counter } from 'prom-client';
import { ServiceMetrics } from '../../observability/service-metrics';

/** How often the refresh job runs a round: each round re-signs at most LICENSE_REFRESH_PER_SECOND licenses. */
export const LICENSE_REFRESH_INTERVAL_MS = 1000;

/**
 * Runs the refresh job (RefreshStoredLicenses, issue 40) in this instance: a
 * round every second, each re-signing at most LICENSE_REFRESH_PER_SECOND
 * stored licenses (0: no job), one round at a time. Instances running it
 * together claim each license before signing it (as the webhook dispatcher
 * claims its deliveries), so none is signed twice. A failed round (the
 * database away) is logged and the next one tries again. The licenses signed,
 * on validate's or refresh's path by reason and ahead of need, are a metric.
 */
@Injectable()
export class LicenseRefresher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Licenses');
  private timer?: NodeJS.Timeout;
  private running?: Promise<LicenseRefreshRound | null>;
  private stopped = false;

  constructor(
    private readonly refresh: RefreshStoredLicenses,
    private readonly config: AppConfig,
    licenses: OfflineLicenses,
    metrics: ServiceMetrics,
  ) {
    // counts kept by OfflineLicenses, added to the counter when /metrics is read
    const reported: Record<string, number> = {};
    const report = (counter: Counter<'path' | 'reason'>, path: string, reason: string, total: number) => {
      const delta = total - (reported[`${path}/${reason}`] ?? 0);
      reported[`${path}/${reason}`] = total;
      counter.labels(path, reason).inc(delta);
    };
    new Counter({
      name: 'svc_license_signatures_total',
      help: 'Offline licenses signed: path=request (on validate or refresh, by reason: none_stored, terms_changed, signing_key_retired, too_old), path=ahead (at a change of terms or by the refresh job)',
      labelNames: ['path', 'reason'],
      registers: [metrics.registry],
      collect() {
        for (const reason of ON_REQUEST_REASONS) report(this, 'request', reason, licenses.signedOnRequest[reason]);
        report(this, 'ahead', 'none', licenses.signedAhead);
      },
    });
  }

  onApplicationBootstrap(): void {
    if (this.config.license.refreshPerSecond === 0) return;
    this.timer = setInterval(() => void this.round(), LICENSE_REFRESH_INTERVAL_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  /** One round now (a round under way is joined): what it did, or null when it failed (logged) or the job is stopped. */
  round(): Promise<LicenseRefreshRound | null> {
    if (this.stopped) return Promise.resolve(null);
    this.running ??= this.refresh
      .execute(Math.max(1, this.config.license.refreshPerSecond))
      .catch((error: Error) => {
        this.logger.warn({ msg: 'license refresh round failed; retrying in a second', error: error.message });
        return null;
      })
      .finally(() => (this.running = undefined));
    return this.running;
  }
}
