/**
 * Whether an error means the database cannot be reached or cannot answer in
 * time (rather than a bug): connection refused, reset or closed, pool or
 * statement timeouts, the server shutting down or refusing connections,
 * SQLite busy or locked. Such failures answer 503 SERVICE_UNAVAILABLE with
 * Retry-After; the pool reconnects by itself when the database is back.
 */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** PostgreSQL SQLSTATEs: connection exceptions (08…), operator intervention (57…), too many connections. */
const POSTGRES_STATES = /^(08\d{3}|57P0[1-4]|57014|53300)$/;
const SQLITE_CODES = /^SQLITE_(BUSY|LOCKED|CANTOPEN|IOERR)/;
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
];

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 3) return false;
  const { code, message, driverError, cause } = error as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || POSTGRES_STATES.test(code) || SQLITE_CODES.test(code))) return true;
  if (typeof message === 'string' && MESSAGES.some((pattern) => pattern.test(message))) return true;
  return isDatabaseUnavailable(driverError, depth + 1) || isDatabaseUnavailable(cause, depth + 1);
}
