import { type AuditEntry } from '../audit/audit-entry';
import { type WebhookEvent } from '../webhook/webhook-event';
import { type ApiKey } from './api-key';

/**
 * The rows a key change writes beside the key, in the same transaction: all
 * of them with the change, or none, and none when the change is refused
 * (ApiKeyRepository.insert, rotate and revoke). Its audit entries and its
 * webhook events (the outbox, CONTRACT 20); a new kind of row written with
 * key changes is one more field here, which each adapter writes in its one
 * place that writes these.
 */
export interface KeyChangeRecords {
  readonly audit: readonly AuditEntry[];
  /** Absent: none. */
  readonly events?: readonly WebhookEvent[];
}

/** What revoking one key writes with it, asked of the caller for each key the revocation actually revokes. */
export type RecordsOfRevoked = (keyId: string) => KeyChangeRecords;

/**
 * A revocation (CONTRACT 2 and 16): the key, once, at an instant, and with it
 * the keys its license was rotated from that are still in their grace, so
 * that none outlives the key that replaced it. Made by revocationOf.
 */
export interface Revocation {
  readonly keyId: string;
  readonly at: Date;
  /**
   * Revoked with the key only while it is still its license's current key
   * (not rotated meanwhile), each only while itself not revoked.
   */
  readonly predecessorsInGrace: readonly string[];
}

/**
 * The revocation of `key` at `at`, given its license's keys: when it is the
 * license's current key (not rotated), every key rotated before it that is
 * not revoked goes with it (CONTRACT 16).
 */
export function revocationOf(key: ApiKey, license: readonly ApiKey[], at: Date): Revocation {
  const current = key.rotatedTo === null && key.props.rotatedFrom !== null;
  return {
    keyId: key.id,
    at,
    predecessorsInGrace: current ? license.filter((k) => k.id !== key.id && k.rotatedTo !== null && !k.revokedAt).map((k) => k.id) : [],
  };
}
