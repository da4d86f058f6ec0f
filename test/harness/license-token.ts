import { createPublicKey, verify } from 'node:crypto';

/** A compact JWS: three base64url parts (CONTRACT 15). */
export const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

export interface Jwk {
  readonly kty: string;
  readonly crv: string;
  readonly x: string;
  readonly kid: string;
  readonly alg?: string;
  readonly use?: string;
}

/** A JSON Web Key Set as `GET /v1/license/jwks` publishes it. */
export interface Jwks {
  readonly keys: Jwk[];
}

/** The JWKS as an SDK fetches it: over HTTP, with no key; anything but a 200 fails. */
export async function fetchJwks(baseUrl: string): Promise<Jwks> {
  const res = await fetch(`${baseUrl}/v1/license/jwks`);
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET /v1/license/jwks answered ${res.status}: ${text}`);
  return JSON.parse(text) as Jwks;
}

/**
 * An offline verifier written from the standards alone (RFC 7515, 8037, 7519),
 * with node:crypto's Ed25519 and none of the service's code or its JOSE
 * library: what a third-party SDK does. Answers the claims, or throws why not.
 */
export function verifyIndependently(token: string, jwks: { readonly keys: readonly Jwk[] }, nowSeconds: number): Record<string, unknown> {
  const parts = token.split('.');
  if (parts.length !== 3 || !COMPACT_JWS.test(token)) throw new Error('not a compact JWS');
  const [encodedHeader, encodedPayload, encodedSignature] = parts;
  const header = JSON.parse(Buffer.from(encodedHeader, 'base64url').toString('utf8')) as Record<string, unknown>;
  if (header.alg !== 'EdDSA') throw new Error(`unexpected alg ${String(header.alg)}`);
  const jwk = jwks.keys.find((key) => key.kid === header.kid);
  if (!jwk) throw new Error(`no published key has kid ${String(header.kid)}`);
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519') throw new Error('the published key is not Ed25519');
  const publicKey = createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, format: 'jwk' });
  const signed = Buffer.from(`${encodedHeader}.${encodedPayload}`, 'ascii');
  if (!verify(null, signed, publicKey, Buffer.from(encodedSignature, 'base64url'))) throw new Error('bad signature');
  const claims = JSON.parse(Buffer.from(encodedPayload, 'base64url').toString('utf8')) as Record<string, unknown>;
  if (typeof claims.exp !== 'number' || claims.exp <= nowSeconds) throw new Error('expired');
  return claims;
}

/** The token with one part replaced: `header`, `payload` or `signature`. */
export function tampered(token: string, part: 'header' | 'payload', edit: (json: Record<string, unknown>) => void): string {
  const parts = token.split('.');
  const index = part === 'header' ? 0 : 1;
  const json = JSON.parse(Buffer.from(parts[index], 'base64url').toString('utf8')) as Record<string, unknown>;
  edit(json);
  parts[index] = Buffer.from(JSON.stringify(json), 'utf8').toString('base64url');
  return parts.join('.');
}
