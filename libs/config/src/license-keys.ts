import { type KeyObject, createPrivateKey, createPublicKey } from 'node:crypto';

/** True for PEM text holding one Ed25519 private key. */
export function isEd25519PrivateKey(pem: string): boolean {
  try {
    return createPrivateKey(pem).asymmetricKeyType === 'ed25519';
  } catch {
    return false;
  }
}

const PEM_PUBLIC_KEY = /-----BEGIN PUBLIC KEY-----[\s\S]+?-----END PUBLIC KEY-----/g;

/**
 * The Ed25519 public keys in `text` as SPKI PEM: a JWKS (`{"keys": [...]}`) or
 * PEM public keys one after another. Null when the text holds none, or
 * anything that is not an Ed25519 public key.
 */
export function ed25519PublicKeysIn(text: string): string[] | null {
  let keys: KeyObject[];
  try {
    keys = text.trimStart().startsWith('{') ? jwksKeys(text) : (text.match(PEM_PUBLIC_KEY) ?? []).map((pem) => createPublicKey(pem));
  } catch {
    return null;
  }
  if (keys.length === 0 || keys.some((key) => key.asymmetricKeyType !== 'ed25519')) return null;
  return keys.map((key) => key.export({ type: 'spki', format: 'pem' }).toString());
}

function jwksKeys(text: string): KeyObject[] {
  const parsed = JSON.parse(text) as { keys?: unknown };
  if (!Array.isArray(parsed.keys)) throw new Error('not a JWKS');
  return parsed.keys.map((jwk) => {
    const { kty, crv, x } = jwk as Record<string, unknown>;
    return createPublicKey({ key: { kty, crv, x } as never, format: 'jwk' });
  });
}
