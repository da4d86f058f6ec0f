import { createHash, createHmac } from 'node:crypto';
import { SecretHasher } from '@svc/domain';

/** SHA-256 of the key, or HMAC-SHA-256 with a server-side pepper when one is configured. */
export class Sha256SecretHasher extends SecretHasher {
  constructor(private readonly pepper: string | null) {
    super();
  }

  digest(secret: string): string {
    return this.pepper === null
      ? createHash('sha256').update(secret, 'utf8').digest('hex')
      : createHmac('sha256', this.pepper).update(secret, 'utf8').digest('hex');
  }
}
