/**
 * Signs the links to the service's own model store (CONTRACT 7): a keyed MAC
 * (HMAC-SHA256 under MODEL_URL_SECRET) over a text the link format builds
 * (`modelFileLinkPayload`, model-file-link.ts). Instances sharing the secret
 * accept each other's signatures.
 */
export abstract class ModelLinkSigner {
  /** The signature of `payload`, base64url without padding. */
  abstract sign(payload: string): string;
  /** Whether `signature` is the signature of `payload`, compared in constant time. */
  abstract verify(payload: string, signature: string): boolean;
}
