import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { type AppConfig, ConfigError } from '@svc/config';

/** What marks a sealed value: the format's name and version, then base64 of nonce, ciphertext and tag. */
export const SEALED_PREFIX = 'enc:v1:';

const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** A key of the keyring, with the variable that holds it (named in errors; the key itself never is). */
interface NamedKey {
  readonly variable: 'SECRETS_KEY' | 'NEW_SECRETS_KEY';
  readonly key: Buffer;
}

/** How a stored value reads under the keyring: in plain text, sealed under the key that seals, or under another key of it. */
export type StoredForm = 'plain' | 'sealed' | 'sealed-under-other-key';

/**
 * The one place where the secrets the service keeps in the database are
 * encrypted at rest: the generated license signing keys, the
 * generated link secret and the webhook signing secrets, each written as
 * `enc:v1:<base64 of nonce | ciphertext | tag>`, AES-256-GCM with a random
 * 96-bit nonce of its own. The keyring is SECRETS_KEY and, while moving to
 * another key, NEW_SECRETS_KEY: the new key seals what is written, either
 * opens. Without a key, values are written in plain text, as before. A value
 * without the prefix is read as plain text whatever the keyring (one written
 * before SECRETS_KEY was set), and sealed on its next write or by `license
 * rotate-secrets-key`. No key and no value is ever part of a message.
 */
export class SecretsCipher {
  private constructor(
    /** The key that seals, or null: plain text. */
    private readonly sealing: NamedKey | null,
    /** Every key that opens, the sealing one first. */
    private readonly opening: readonly NamedKey[],
  ) {}

  /** SECRETS_KEY and NEW_SECRETS_KEY as configured (both base64 of 32 bytes, checked by loadConfig). */
  static of(secrets: AppConfig['secrets']): SecretsCipher {
    const named = (variable: NamedKey['variable'], text: string | null): NamedKey | null =>
      text === null ? null : { variable, key: Buffer.from(text, 'base64') };
    const current = named('SECRETS_KEY', secrets.key);
    const moving = named('NEW_SECRETS_KEY', secrets.newKey);
    const sealing = moving ?? current;
    return new SecretsCipher(
      sealing,
      [moving, current].filter((k): k is NamedKey => k !== null),
    );
  }

  /** No key: values are written and read in plain text. */
  static plain(): SecretsCipher {
    return new SecretsCipher(null, []);
  }

  /** Whether values are written encrypted. */
  get seals(): boolean {
    return this.sealing !== null;
  }

  /** The variable whose key seals (for messages), or null. */
  get sealingVariable(): string | null {
    return this.sealing?.variable ?? null;
  }

  /** `value` as stored: sealed under the sealing key with a new nonce, or as it is without a key. */
  seal(value: string): string {
    if (this.sealing === null) return value;
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.sealing.key, nonce);
    const sealed = Buffer.concat([nonce, cipher.update(value, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return SEALED_PREFIX + sealed.toString('base64');
  }

  /**
   * The value `stored` holds. `where` names the value for the error (a table,
   * column and row id, never the value): a sealed value no key of the keyring
   * opens stops with a ConfigError naming the variables.
   */
  open(stored: string, where: string): string {
    return this.read(stored, where).value;
  }

  /** How `stored` reads under this keyring (throws as `open` does when no key opens it). */
  formOf(stored: string, where: string): StoredForm {
    return this.read(stored, where).form;
  }

  private read(stored: string, where: string): { value: string; form: StoredForm } {
    if (!stored.startsWith(SEALED_PREFIX)) return { value: stored, form: 'plain' };
    if (this.opening.length === 0) {
      throw new ConfigError([`${where} is encrypted at rest and SECRETS_KEY is not set: set SECRETS_KEY to the key it was encrypted with`]);
    }
    const bytes = Buffer.from(stored.slice(SEALED_PREFIX.length), 'base64');
    if (bytes.length >= NONCE_BYTES + TAG_BYTES) {
      const nonce = bytes.subarray(0, NONCE_BYTES);
      const tag = bytes.subarray(bytes.length - TAG_BYTES);
      const ciphertext = bytes.subarray(NONCE_BYTES, bytes.length - TAG_BYTES);
      for (const named of this.opening) {
        try {
          const decipher = createDecipheriv('aes-256-gcm', named.key, nonce);
          decipher.setAuthTag(tag);
          const value = Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
          return { value, form: named === this.sealing ? 'sealed' : 'sealed-under-other-key' };
        } catch {
          // not this key (GCM's tag does not match): try the next one
        }
      }
    }
    const variables = this.opening.map((k) => k.variable).join(' or ');
    throw new ConfigError([
      `${variables} cannot decrypt ${where}: it was encrypted with another key (or altered). ` +
        'Set SECRETS_KEY to the key it was encrypted with (after a `license rotate-secrets-key`, the new one)',
    ]);
  }
}
