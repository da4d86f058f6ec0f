import { Module } from '@nestjs/common';
import { KeyRevocation, KeyRotator, OfflineLicenses } from '@svc/application';

/**
 * The key-lifecycle steps that more than one feature takes: revoking a key (with its
 * predecessors still in grace), rotating it, and signing its offline license. Provided once,
 * here; the auth and admin key modules import them.
 */
@Module({
  providers: [KeyRevocation, KeyRotator, OfflineLicenses],
  exports: [KeyRevocation, KeyRotator, OfflineLicenses],
})
export class KeyLifecycleModule {}
