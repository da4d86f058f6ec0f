import { createHash } from 'node:crypto';
import { FingerprintDigest } from '@svc/domain';

/** A device fingerprint's SHA-256, lowercase hex (CONTRACT 23): never peppered, so an SDK can compute the `device` claim itself. */
export class Sha256FingerprintDigest extends FingerprintDigest {
  of(fingerprint: string): string {
    return createHash('sha256').update(fingerprint, 'utf8').digest('hex');
  }
}
