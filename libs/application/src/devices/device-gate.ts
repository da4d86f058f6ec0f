import { Injectable } from '@nestjs/common';
import {
  type ApiKey,
  Clock,
  DeviceNotActivatedError,
  DeviceRepository,
  DeviceRequiredError,
  FINGERPRINT_RULE,
  InvalidRequestError,
  TierCatalog,
  FingerprintDigest,
  isFingerprint,
  seatHeldSince,
} from '@svc/domain';

/** How often a named call writes its device's `last_seen_at`: at most once a minute per device. */
export const DEVICE_SEEN_EVERY_MS = 60_000;

/**
 * Key calls that name their device (CONTRACT 23). Named: the device must hold a seat of the key's
 * license (else DEVICE_NOT_ACTIVATED), its `last_seen_at` moves (written at most once a minute), and
 * the fingerprint's SHA-256 is answered for the offline license's `device` claim. Unnamed: nothing
 * is read, unless the tier requires a device (DEVICE_REQUIRED).
 */
@Injectable()
export class DeviceGate {
  constructor(
    private readonly devices: DeviceRepository,
    private readonly catalog: TierCatalog,
    private readonly clock: Clock,
    private readonly digests: FingerprintDigest,
  ) {}

  /** `fingerprint`: what the call sent (undefined or null: none). The named device's digest, or null when unnamed. */
  async check(key: ApiKey, fingerprint: unknown): Promise<string | null> {
    const policy = this.catalog.devicePolicyOf(key.licenseType);
    if (fingerprint === undefined || fingerprint === null) {
      if (policy.requireDevice) throw new DeviceRequiredError();
      return null;
    }
    if (!isFingerprint(fingerprint)) throw new InvalidRequestError(FINGERPRINT_RULE);
    const digest = this.digests.of(fingerprint);
    const now = this.clock.now();
    const device = await this.devices.findHolding(key.licenseId, digest, seatHeldSince(policy, now));
    if (!device) throw new DeviceNotActivatedError();
    const staleBefore = new Date(now.getTime() - DEVICE_SEEN_EVERY_MS);
    if (device.lastSeenAt.getTime() < staleBefore.getTime()) await this.devices.touch(device.id, now, staleBefore);
    return digest;
  }
}
