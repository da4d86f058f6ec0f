import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { ConfigError } from '@svc/config';
import { SEALED_PREFIX, SecretsCipher } from './secrets-cipher';

const keyText = () => randomBytes(32).toString('base64');

/** The ConfigError `act` throws (fails the test when it throws none). */
function refusalOf(act: () => unknown): ConfigError {
  try {
    act();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe(SecretsCipher.name, () => {
  const secret = 'whsec_' + randomBytes(32).toString('base64');

  it('seals with AES-256-GCM under SECRETS_KEY, a new nonce each time, and opens what it sealed', () => {
    const key = keyText();
    const cipher = SecretsCipher.of({ key, newKey: null });
    const [a, b] = [cipher.seal(secret), cipher.seal(secret)];
    for (const sealed of [a, b]) {
      expect(sealed.startsWith(SEALED_PREFIX)).toBe(true);
      expect(sealed).not.toContain(secret.slice(6, 20));
      expect(cipher.open(sealed, 'the test value')).toBe(secret);
      expect(cipher.formOf(sealed, 'the test value')).toBe('sealed');
    }
    expect(a).not.toBe(b);
    // 12 bytes of nonce, the ciphertext, 16 bytes of tag
    expect(Buffer.from(a.slice(SEALED_PREFIX.length), 'base64')).toHaveLength(12 + secret.length + 16);
    // url-safe base64 of the same key is the same key
    const urlSafe = SecretsCipher.of({ key: Buffer.from(key, 'base64').toString('base64url'), newKey: null });
    expect(urlSafe.open(a, 'the test value')).toBe(secret);
  });

  it('reads a value without the prefix as plain text, with or without a key; writes plain text without a key', () => {
    expect(SecretsCipher.of({ key: keyText(), newKey: null }).open(secret, 'x')).toBe(secret);
    expect(SecretsCipher.of({ key: keyText(), newKey: null }).formOf(secret, 'x')).toBe('plain');
    expect(SecretsCipher.plain().seal(secret)).toBe(secret);
    expect(SecretsCipher.plain().seals).toBe(false);
  });

  it('refuses a value sealed under another key, or altered, naming the variable and the place, never a key or value', () => {
    const key = keyText();
    const sealed = SecretsCipher.of({ key: keyText(), newKey: null }).seal(secret);
    const wrong = refusalOf(() => SecretsCipher.of({ key, newKey: null }).open(sealed, 'generated_secrets.value of model-link-secret'));
    expect(wrong.problems).toEqual([
      'SECRETS_KEY cannot decrypt generated_secrets.value of model-link-secret: it was encrypted with another key (or altered). ' +
        'Set SECRETS_KEY to the key it was encrypted with (after a `license rotate-secrets-key`, the new one)',
    ]);
    expect(wrong.message).not.toContain(key);

    const own = SecretsCipher.of({ key, newKey: null });
    const bytes = Buffer.from(own.seal(secret).slice(SEALED_PREFIX.length), 'base64');
    bytes[20] ^= 1;
    expect(() => own.open(SEALED_PREFIX + bytes.toString('base64'), 'x')).toThrow(ConfigError);
    expect(() => own.open(`${SEALED_PREFIX}AAAA`, 'x')).toThrow(ConfigError);

    const none = refusalOf(() => SecretsCipher.plain().open(sealed, 'webhook_endpoints.secret of wh_1'));
    expect(none.problems[0]).toBe(
      'webhook_endpoints.secret of wh_1 is encrypted at rest and SECRETS_KEY is not set: set SECRETS_KEY to the key it was encrypted with',
    );
  });

  it('while moving to NEW_SECRETS_KEY: seals under the new key, opens under either, and tells which', () => {
    const [key, newKey] = [keyText(), keyText()];
    const before = SecretsCipher.of({ key, newKey: null }).seal(secret);
    const moving = SecretsCipher.of({ key, newKey });
    expect(moving.sealingVariable).toBe('NEW_SECRETS_KEY');
    expect(moving.open(before, 'x')).toBe(secret);
    expect(moving.formOf(before, 'x')).toBe('sealed-under-other-key');
    const after = moving.seal(secret);
    expect(moving.formOf(after, 'x')).toBe('sealed');
    expect(SecretsCipher.of({ key: newKey, newKey: null }).open(after, 'x')).toBe(secret);
    expect(() => SecretsCipher.of({ key, newKey: null }).open(after, 'x')).toThrow(ConfigError);
    // from plain text to a first key: NEW_SECRETS_KEY alone
    expect(SecretsCipher.of({ key: null, newKey }).formOf(secret, 'x')).toBe('plain');
    expect(refusalOf(() => SecretsCipher.of({ key: keyText(), newKey: keyText() }).open(before, 'x')).problems[0]).toMatch(
      /^NEW_SECRETS_KEY or SECRETS_KEY cannot decrypt x:/,
    );
  });
});
