import { ApiKey } from './api-key';

/** Issued keys, stored by digest. */
export abstract class ApiKeyRepository {
  abstract findByDigest(digest: string): Promise<ApiKey | null>;
  abstract findById(id: string): Promise<ApiKey | null>;
  abstract insert(key: ApiKey): Promise<void>;
  /** Saves tier, expiry and limit changes of a key that is not revoked; false if it is (or is gone). */
  abstract updateTerms(key: ApiKey): Promise<boolean>;
  /**
   * Marks the key revoked in one conditional step: true for exactly one caller
   * however many race, false when it was already revoked or does not exist.
   */
  abstract markRevoked(id: string, at: Date): Promise<boolean>;
}
