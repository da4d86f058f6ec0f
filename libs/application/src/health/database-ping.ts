/** How long the database may take to answer a ping before it counts as down (health, readiness, gauge). */
export const DATABASE_PING_TIMEOUT_MS = 1500;

/**
 * Whether the database answers within DATABASE_PING_TIMEOUT_MS: the health
 * endpoint, the readiness probe and the `svc_database_up` gauge ask it. Each
 * persistence module binds its own.
 */
export abstract class DatabasePing {
  abstract answers(): Promise<boolean>;
}
