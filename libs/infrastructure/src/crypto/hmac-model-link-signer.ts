import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ModelLinkSigner } from '@svc/domain';

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
 * with mode 0600 so links survive restarts. Instances that start together
 * agree: the file appears whole, by a hard link that fails if it exists, and
 * the loser reads the winner's. The secret is never logged.
 */
export async function modelUrlSecretOf(configured: string | null, file: string): Promise<string> {
  if (configured !== null) return configured;
  const existing = await readSecret(file);
  if (existing !== null) return existing;
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${randomBytes(8).toString('hex')}.tmp`;
  await writeFile(temporary, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await link(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
  const kept = await readSecret(file);
  if (kept === null) throw new Error(`the model link secret file ${file} is not a generated secret; remove it or set MODEL_URL_SECRET`);
  return kept;
}

async function readSecret(file: string): Promise<string | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const secret = text.trim();
  if (!GENERATED_FORM.test(secret)) throw new Error(`the model link secret file ${file} is not a generated secret; remove it or set MODEL_URL_SECRET`);
  return secret;
}
