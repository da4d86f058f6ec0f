import { type ApiKey } from './api-key';
import { type KeyChangeRecords, type RecordsOfRevoked, type Revocation } from './key-change';
import { type KeyRotation } from './key-rotation';

/** What `key.expiring` names of a key (keyExpiringEvent). */
export interface ExpiringKey {
  readonly id: string;
  readonly prefix: string;
  readonly licenseId: string;
  readonly expiresAt: Date;
}

/** Issued keys, stored by digest. */
export abstract class ApiKeyRepository {
  abstract findByDigest(digest: string): Promise<ApiKey | null>;
  abstract findById(id: string): Promise<ApiKey | null>;
  /** Stores a new key, with `records` (its audit entry and events) in the same transaction when given. */
  abstract insert(key: ApiKey, records?: KeyChangeRecords): Promise<void>;
  /** Saves tier, expiry and limit changes of a key that is not revoked; false if it is (or is gone). */
  abstract updateTerms(key: ApiKey): Promise<boolean>;
  /**
   * Revokes in one transaction (CONTRACT 2 and 16): the key only while it is
   * not revoked, and only then its predecessors in grace (only while it is
   * still its license's current key, each only while not revoked), each
   * revoked key with `recordsOf(its id)`. True for exactly one caller however
   * many race; false, with nothing changed or written, for the others (or an
   * unknown key). When a write fails, nothing of it is kept and it rejects.
   */
  abstract revoke(revocation: Revocation, recordsOf: RecordsOfRevoked): Promise<boolean>;
  /**
   * Rotates in one transaction (CONTRACT 16): marks the predecessor rotated
   * to the successor (its expiry lowered, or revoked for a grace of 0) only
   * while it is neither rotated nor revoked, and stores the successor and
   * `records` with it. True for exactly one caller however many race (on any
   * number of instances); false, with nothing stored or changed, for the
   * others. When a write fails, nothing of it is kept and it rejects.
   */
  abstract rotate(rotation: KeyRotation, records: KeyChangeRecords): Promise<boolean>;
  /** Every key of a license (the chain of rotations), oldest first. */
  abstract findByLicense(licenseId: string): Promise<ApiKey[]>;
  /**
   * Keys neither revoked nor rotated that expire in (from, until] and whose
   * `key.expiring` (keyExpiringEventId) is not in the webhook outbox yet,
   * soonest first, at most `limit` (CONTRACT 20: the notice is sent once).
   */
  abstract findExpiringBetween(from: Date, until: Date, limit: number): Promise<ExpiringKey[]>;
}
