/**
 * The audit log's order: `seq`, given by the database as entries
 * are appended, breaks ties of `at`, so entries of one millisecond are listed
 * as they happened. The indexes of that order, and of the id (unique, no
 * longer the primary key), with the same names and columns on every database:
 * each database's migration 1764200000000 creates them from this one list.
 */
export const AUDIT_ORDER_INDEXES: ReadonlyArray<readonly [name: string, columns: string]> = [
  ['ix_audit_log_order', 'at, seq'],
  ['ix_audit_log_key_order', 'key_id, at, seq'],
  ['ix_audit_log_action_order', 'action, at, seq'],
];

/** The unique index of an entry's id. */
export const AUDIT_ID_INDEX = 'ux_audit_log_id';

/** The indexes the order replaces (of the first migration and of the console's, CONSOLE_INDEXES), restored by the migrations' `down`. */
export const AUDIT_INDEXES_BEFORE: ReadonlyArray<readonly [name: string, columns: string]> = [
  ['ix_audit_log_key_at', 'key_id, at'],
  ['ix_audit_log_at', 'at'],
  ['ix_audit_log_at_id', 'at, id'],
  ['ix_audit_log_action_at', 'action, at, id'],
];
