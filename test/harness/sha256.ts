import { createHash } from 'node:crypto';

/** SHA-256 of `data` (a string as UTF-8), in hexadecimal: a key's stored digest, a stored file's hash. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** A model file's checksum as the API writes it: `sha256:` and the hexadecimal digest of its bytes. */
export function modelChecksum(bytes: Uint8Array): string {
  return `sha256:${sha256Hex(bytes)}`;
}
