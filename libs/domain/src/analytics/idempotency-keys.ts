/**
 * Idempotency keys (CONTRACT 22): each names at most one stored event of a
 * license, whichever of its keys sent it, for as long as the event is kept.
 */

/** A key claimed for an event about to be stored: the event's id and what was reported (reportedFieldsOf). */
export interface IdempotencyClaim {
  readonly key: string;
  readonly eventId: string;
  readonly reportedFields: string;
}

/** The event a key already names, and whether a claim's fields are that event's. */
export interface IdempotencyHolder {
  readonly eventId: string;
  readonly sameFields: boolean;
}

/**
 * The license's idempotency keys, claimed in the transaction that stores
 * their events (a unit of work): a claim made by a transaction not yet
 * committed holds others back until it commits (they then find the key
 * held) or rolls back (the next claim gets it), so that of concurrent sends
 * on any number of instances exactly one stores the event.
 */
export abstract class IdempotencyKeys {
  /**
   * Claims each key (distinct keys) for the license: per claim, in order,
   * null when this claim got the key, else the event that holds it.
   */
  abstract claim(licenseId: string, claims: readonly IdempotencyClaim[], at: Date): Promise<(IdempotencyHolder | null)[]>;
  /** Gives back keys claimed in this transaction for events it then refused (a refused event is judged anew when retried). */
  abstract release(licenseId: string, keys: readonly string[]): Promise<void>;
}
