import { type KeyObject, createPrivateKey } from 'node:crypto';
import { ConfigError } from '@svc/config';

/**
 * The GitHub App's PEM private key (GITHUB_APP_PRIVATE_KEY), parsed once at start-up, so a bad key
 * stops it with a ConfigError. Accepts PKCS#1 (GitHub's download) and PKCS#8, and a PEM whose newlines
 * arrived as literal `\n`. RSA of at least 2048 bits: the JWT signer (jsonwebtoken) refuses smaller keys.
 */
export function githubAppSigningKeyOf(pem: string): KeyObject {
  const text = !pem.includes('\n') && pem.includes('\\n') ? pem.replace(/\\n/g, '\n') : pem;
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: text, format: 'pem' });
  } catch {
    throw new ConfigError(['GITHUB_APP_PRIVATE_KEY is not a readable PEM private key']);
  }
  if (key.asymmetricKeyType !== 'rsa') {
    throw new ConfigError(['GITHUB_APP_PRIVATE_KEY must be an RSA private key']);
  }
  if ((key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048) {
    throw new ConfigError(['GITHUB_APP_PRIVATE_KEY must be an RSA key of at least 2048 bits']);
  }
  return key;
}
