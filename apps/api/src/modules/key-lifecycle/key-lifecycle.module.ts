import { Global, Module } from '@nestjs/common';
import { KeyRevocation, KeyRotator, OfflineLicenses, RefreshStoredLicenses } from '@svc/application';
import { LicenseRefresher } from './license-refresher';

/**
 * The key-lifecycle steps that more than one feature takes: revoking a key (with its
 * predecessors still in grace), rotating it, and signing its offline license (one
 * OfflineLicenses per instance, whose counts /metrics reports), with the job that
 * re-signs stored licenses ahead of need. Provided once, here, for every module
 * (global: issuing a key signs its license too).
 */
@Global()
@Module({
  providers: [KeyRevocation, KeyRotator, OfflineLicenses, RefreshStoredLicenses, LicenseRefresher],
  exports: [KeyRevocation, KeyRotator, OfflineLicenses],
})
export class KeyLifecycleModule {}
