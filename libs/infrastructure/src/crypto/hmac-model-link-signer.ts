import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ModelLinkSigner } from '@svc/domain';
import { keptSecretOf } from './kept-secret-file';

/** HMAC-SHA256 under the link secret (CONTRACT 7); signatures in base64url without padding. */
export class HmacModelLinkSigner extends ModelLinkSigner {
  private readonly key: Buffer;

  constructor(secret: string) {
    super();
    this.key = Buffer.from(secret, 'utf8');
  }

  sign(payload: string): string {
    return this.mac(payload).toString('base64url');
  }

  verify(payload: string, signature: string): boolean {
    const expected = this.mac(payload);
    const given = Buffer.from(signature, 'base64url');
    // lengths differ only for malformed input, which says nothing about the secret
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private mac(payload: string): Buffer {
    return createHmac('sha256', this.key).update(payload, 'utf8').digest();
  }
}

/** A generated secret: 32 random bytes, base64url (43 characters). */
const GENERATED_FORM = /^[A-Za-z0-9_-]{43,}$/;

/**
 * The link secret: MODEL_URL_SECRET when set; on the embedded default, the
 * one kept in `file` (beside the model store), generated at the first start
 * with mode 0600 so links survive restarts (keptSecretOf).
 */
export async function modelUrlSecretOf(configured: string | null, file: string): Promise<string> {
  if (configured !== null) return configured;
  return keptSecretOf({
    file,
    generate: () => randomBytes(32).toString('base64url'),
    accepts: (text) => GENERATED_FORM.test(text),
    refusal: `the model link secret file ${file} is not a generated secret; remove it or set MODEL_URL_SECRET`,
  });
}
