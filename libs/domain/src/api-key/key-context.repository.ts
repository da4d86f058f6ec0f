import { type User } from '../user/user';
import { type StoredLicense } from '../license/offline-license';
import { type ApiKey } from './api-key';

/** A key as validate needs it: the key, its holder, and what it used in one billing period. */
export interface KeyContext {
  readonly key: ApiKey;
  readonly user: User;
  /** Units used in the period asked for; 0 when nothing was counted yet. */
  readonly used: number;
  /** The key's stored signed license (issue 40); null when none is stored, absent where the read does not look. */
  readonly license?: StoredLicense | null;
}

/**
 * Validate's read (SPEC 4.1): the key with this digest, its user and its
 * usage in `periodKey`, in one step (one statement, one round trip), so the
 * hottest endpoint costs one read. Revoked and expired keys are returned too:
 * the caller judges them, as with ApiKeyRepository.findByDigest. Every key
 * has its user; usage never counted reads 0.
 */
export abstract class KeyContextRepository {
  abstract findByDigest(digest: string, periodKey: string): Promise<KeyContext | null>;
}
