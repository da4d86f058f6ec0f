import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { type Clock, type GeneratedSecretRepository, ModelLinkSigner } from '@svc/domain';
import { legacySecretIn } from './legacy-secret-file';

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

/** The name the generated link secret is kept under in the database. */
export const MODEL_LINK_SECRET = 'model-link-secret';

/**
 * The link secret: MODEL_URL_SECRET when set (never written to the
 * database); else the one kept in the database (CONTRACT 19), so links one
 * instance signs open on every other. The first start keeps the secret an
 * earlier version left in `legacyFile` (beside the model store), or a new one;
 * of instances starting together, the first to keep one wins and the others
 * read it back.
 */
export async function modelUrlSecretOf(
  configured: string | null,
  legacyFile: string,
  secrets: GeneratedSecretRepository,
  clock: Clock,
): Promise<string> {
  if (configured !== null) return configured;
  const kept = await secrets.find(MODEL_LINK_SECRET);
  if (kept !== null) return kept;
  const earlier = await legacySecretIn({
    file: legacyFile,
    accepts: (text) => GENERATED_FORM.test(text),
    refusal: `the model link secret file ${legacyFile} is not a generated secret; remove it or set MODEL_URL_SECRET`,
  });
  return secrets.keepFirst(MODEL_LINK_SECRET, earlier ?? randomBytes(32).toString('base64url'), clock.now());
}
