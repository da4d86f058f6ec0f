import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { type LeaseReleaseRound, ReleaseLapsedDevices } from '@svc/application';
import { AppConfig } from '@svc/config';

/** The most lapsed devices one round releases; a round that finds as many goes on at once. */
export const LEASE_RELEASE_BATCH = 200;

/**
 * Runs the lease job (ReleaseLapsedDevices, CONTRACT 23) in this instance: a round every
 * DEVICE_LEASE_CHECK_SECONDS (0: no job), one round at a time, each releasing batches until one
 * finds fewer than a batch. Instances running it together claim each device by its conditional
 * mark, so none is released (nor notified) twice. A failed round (the database away) is logged and
 * the next one tries again. The timer is unref'd: it never keeps the process alive.
 */
@Injectable()
export class DeviceLeaseReleaser implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Devices');
  private timer?: NodeJS.Timeout;
  private running?: Promise<LeaseReleaseRound | null>;
  private stopped = false;

  constructor(
    private readonly release: ReleaseLapsedDevices,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.devices.leaseCheckSeconds === 0) return;
    this.timer = setInterval(() => void this.round(), this.config.devices.leaseCheckSeconds * 1000);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  /** One round now (a round under way is joined): what it did, or null when it failed (logged) or the job is stopped. */
  round(): Promise<LeaseReleaseRound | null> {
    if (this.stopped) return Promise.resolve(null);
    this.running ??= this.releaseAll()
      .catch((error: Error) => {
        this.logger.warn({ msg: 'device lease round failed; retrying at the next round', error: error.message });
        return null;
      })
      .finally(() => (this.running = undefined));
    return this.running;
  }

  private async releaseAll(): Promise<LeaseReleaseRound> {
    const total = { released: 0, skipped: 0 };
    for (;;) {
      const batch = await this.release.execute(LEASE_RELEASE_BATCH);
      total.released += batch.released;
      total.skipped += batch.skipped;
      if (batch.released + batch.skipped < LEASE_RELEASE_BATCH || this.stopped) break;
    }
    if (total.released > 0) this.logger.log({ msg: 'device leases lapsed', released: total.released });
    return total;
  }
}
