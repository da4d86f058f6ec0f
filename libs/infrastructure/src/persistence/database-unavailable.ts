/**
 * Whether an error means the database cannot be reached or cannot answer in
 * time (rather than a bug): connection refused, reset or closed, pool or
 * statement timeouts, the server shutting down or refusing connections,
 * SQLite busy or locked, MySQL's lost connections and lock timeouts. Such failures answer 503 SERVICE_UNAVAILABLE with
 * Retry-After; the pool reconnects by itself when the database is back.
 */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** PostgreSQL SQLSTATEs: connection exceptions (08…), operator intervention (57…), too many connections. */
const POSTGRES_STATES = /^(08\d{3}|57P0[1-4]|57014|53300)$/;
const SQLITE_CODES = /^SQLITE_(BUSY|LOCKED|CANTOPEN|IOERR)/;
/**
 * mysql2's own codes for a connection lost, closed or timed out, and the
 * server's for too many connections, shutting down, a lock wait given up or
 * a deadlock victim (both safe to retry), a statement stopped by its time limit.
 */
const MYSQL_CODES = new Set([
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR',
  'PROTOCOL_ENQUEUE_AFTER_QUIT',
  'ER_CON_COUNT_ERROR',
  'ER_TOO_MANY_USER_CONNECTIONS',
  'ER_SERVER_SHUTDOWN',
  'ER_LOCK_WAIT_TIMEOUT',
  'ER_LOCK_DEADLOCK',
  'ER_QUERY_TIMEOUT',
  'ER_STATEMENT_TIMEOUT',
]);
const MESSAGES = [
  /Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Query read timeout/i,
  /Client has encountered a connection error/i,
  /database is not established/i,
  /Connection is not established/i,
  /database is locked/i,
  /The database connection is not open/i,
  /Driver not Connected/i,
  /Can't add new command when connection is in closed state/i,
  /Pool is closed/i,
];

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 3) return false;
  const { code, message, driverError, cause } = error as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown };
  if (
    typeof code === 'string' &&
    (NETWORK_CODES.has(code) || POSTGRES_STATES.test(code) || SQLITE_CODES.test(code) || MYSQL_CODES.has(code))
  )
    return true;
  if (typeof message === 'string' && MESSAGES.some((pattern) => pattern.test(message))) return true;
  return isDatabaseUnavailable(driverError, depth + 1) || isDatabaseUnavailable(cause, depth + 1);
}
