/**
 * The webhook tables (CONTRACT 20), written once for the three databases:
 * each says how it spells an instant, and what it appends to a CREATE TABLE.
 */
export interface WebhookTableSpelling {
  /** The type of an instant column (`datetime`, `timestamptz`, `DATETIME(3)`). */
  readonly instant: string;
  /** Appended to each CREATE TABLE (MySQL's engine and collation). */
  readonly tableOptions: string;
}

/**
 * `webhook_endpoints` as migration 1764700000000 made it (secrets of at most 100 characters: a
 * `whsec_` secret is 50), or, under another name, with wider secret columns (the sealed secrets'
 * rebuild on SQLite, where a column's type cannot be altered).
 */
export function webhookEndpointsTable(
  { instant, tableOptions }: WebhookTableSpelling,
  name = 'webhook_endpoints',
  secretWidth = 100,
): string {
  return `CREATE TABLE ${name} (
      id varchar(40) NOT NULL PRIMARY KEY,
      url varchar(2000) NOT NULL,
      events text NOT NULL,
      description varchar(500) NULL,
      secret varchar(${secretWidth}) NOT NULL,
      previous_secret varchar(${secretWidth}) NULL,
      previous_secret_expires_at ${instant} NULL,
      failing_since ${instant} NULL,
      disabled_at ${instant} NULL,
      disabled_reason varchar(200) NULL,
      created_at ${instant} NOT NULL,
      updated_at ${instant} NOT NULL) ${tableOptions}`;
}

/**
 * The width of the webhook secret columns from migration 1765100000000 on: a secret sealed at
 * rest (SecretsCipher: `enc:v1:` and base64 of a 12-byte nonce, the 50-character secret and a 16-byte
 * tag) is 111 characters.
 */
export const SEALED_WEBHOOK_SECRET_WIDTH = 255;

/** Every column of `webhook_endpoints`, in order (to copy its rows into a rebuilt table). */
export const WEBHOOK_ENDPOINT_COLUMNS =
  'id, url, events, description, secret, previous_secret, previous_secret_expires_at, failing_since, disabled_at, disabled_reason, created_at, updated_at';

export function webhookTables({ instant, tableOptions }: WebhookTableSpelling): string[] {
  return [
    webhookEndpointsTable({ instant, tableOptions }),
    `CREATE TABLE webhook_events (
      id varchar(120) NOT NULL PRIMARY KEY,
      type varchar(40) NOT NULL,
      occurred_at ${instant} NOT NULL,
      data text NOT NULL,
      fanned_out_at ${instant} NULL) ${tableOptions}`,
    // the dispatcher's read of what is left to fan out, oldest first
    `CREATE INDEX ix_webhook_events_pending ON webhook_events (fanned_out_at, occurred_at)`,
    `CREATE TABLE webhook_deliveries (
      id varchar(40) NOT NULL PRIMARY KEY,
      endpoint_id varchar(40) NOT NULL,
      event_id varchar(120) NULL,
      event_type varchar(40) NOT NULL,
      body text NOT NULL,
      status varchar(16) NOT NULL,
      attempts integer NOT NULL,
      next_attempt_at ${instant} NULL,
      last_attempt_at ${instant} NULL,
      last_status_code integer NULL,
      last_error varchar(500) NULL,
      lease_owner varchar(80) NULL,
      lease_expires_at ${instant} NULL,
      created_at ${instant} NOT NULL) ${tableOptions}`,
    // the claim: pending deliveries due, soonest first
    `CREATE INDEX ix_webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at)`,
    // an endpoint's deliveries, newest first
    `CREATE INDEX ix_webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at, id)`,
  ];
}

export const DROP_WEBHOOK_TABLES = ['DROP TABLE webhook_deliveries', 'DROP TABLE webhook_events', 'DROP TABLE webhook_endpoints'];

/**
 * The outbox's retention sweep (migration 1764800000000): ended deliveries by
 * status and age, and whether an event has a delivery left.
 */
export const WEBHOOK_RETENTION_INDEXES: ReadonlyArray<readonly [name: string, table: string, columns: string]> = [
  ['ix_webhook_deliveries_ended', 'webhook_deliveries', 'status, created_at'],
  ['ix_webhook_deliveries_event', 'webhook_deliveries', 'event_id'],
];

/**
 * The once-a-minute search for keys about to expire (`key.expiring`, migration
 * 1764900000000): a range of `expires_at`. Without it every instance read the
 * whole key table each minute (with SQLite, on the request path's thread).
 */
export const KEY_EXPIRY_INDEXES: ReadonlyArray<readonly [name: string, table: string, columns: string]> = [
  ['ix_api_keys_expires_at', 'api_keys', 'expires_at'],
];
