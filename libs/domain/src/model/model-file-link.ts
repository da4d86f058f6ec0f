/*
 * The format of a signed link to the service's own model store (CONTRACT 7),
 * in one place (the local store makes such links, the `/model-files` route
 * checks them): `<origin>/model-files/<file>?expires=<unix s>&signature=<base64url>`,
 * where the signature is the MAC (ModelLinkSigner: HMAC-SHA256 under
 * MODEL_URL_SECRET) of `modelFileLinkPayload(path, expires)`. The origin is
 * not signed, so a link stays valid behind any host name the service answers
 * to and on every instance that shares the secret. Like an object store's
 * presigned URL. Pure: the MAC itself is the signer's (node:crypto).
 */

/** Where the service's own model store is served (CONTRACT 7). */
export const MODEL_FILES_PATH = '/model-files';

/** The query parameters of a signed link. */
export const LINK_EXPIRES_PARAM = 'expires';
export const LINK_SIGNATURE_PARAM = 'signature';

const EXPIRES_FORM = /^[1-9][0-9]{0,11}$/;
/** An HMAC-SHA256 in base64url without padding: 43 characters. */
const SIGNATURE_FORM = /^[A-Za-z0-9_-]{43}$/;

/** The signed path of a stored file: `/model-files/<file>`, as it appears in the URL. */
export function modelFilePathOf(storedFile: string): string {
  return `${MODEL_FILES_PATH}/${encodeURIComponent(storedFile)}`;
}

/** What is signed: the path and the expiry, one per line (neither may hold a line break). */
export function modelFileLinkPayload(path: string, expiresUnixSeconds: number): string {
  return `GET\n${path}\n${expiresUnixSeconds}`;
}

/** The query string of a signed link, without the `?`. */
export function modelFileLinkQuery(expiresUnixSeconds: number, signature: string): string {
  return `${LINK_EXPIRES_PARAM}=${expiresUnixSeconds}&${LINK_SIGNATURE_PARAM}=${signature}`;
}

/** The parameters a link carries, or null when they are missing or malformed (answered LINK_INVALID). */
export function parseModelFileLinkQuery(
  query: Readonly<Record<string, unknown>> | undefined,
): { expires: number; signature: string } | null {
  const expires = query?.[LINK_EXPIRES_PARAM];
  const signature = query?.[LINK_SIGNATURE_PARAM];
  if (typeof expires !== 'string' || !EXPIRES_FORM.test(expires)) return null;
  if (typeof signature !== 'string' || !SIGNATURE_FORM.test(signature)) return null;
  return { expires: Number(expires), signature };
}
