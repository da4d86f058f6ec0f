import { type ApiKey } from './api-key';
import { type KeyRotation } from './key-rotation';

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
  /**
   * Rotates in one atomic step (CONTRACT 16): marks the predecessor rotated
   * to the successor (its expiry lowered, or revoked for a grace of 0) only
   * while it is neither rotated nor revoked, and stores the successor with
   * it. True for exactly one caller however many race (on any number of
   * instances); false, with nothing stored or changed, for the others.
   */
  abstract rotate(rotation: KeyRotation): Promise<boolean>;
  /** Every key of a license (the chain of rotations), oldest first. */
  abstract findByLicense(licenseId: string): Promise<ApiKey[]>;
}
