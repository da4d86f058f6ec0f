import { type DriverFaults, SOCKET_FAILURES, TYPEORM_NOT_CONNECTED } from '../driver-faults';

/**
 * mysql2's own codes for a connection lost, closed or timed out, and the
 * server's for too many connections, shutting down, a lock wait given up or
 * a deadlock victim (both safe to retry), a statement stopped by its time limit.
 */
const UNAVAILABLE_CODES: ReadonlySet<string> = new Set([
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

/**
 * mysql2's failures that mean the server cannot answer now: a socket failure,
 * one of the codes above, a command on a closed connection or pool, or
 * TypeORM's driver not connected. The pool reconnects by itself once the
 * server is back.
 */
export const MYSQL_FAULTS: DriverFaults = {
  code: (code) => SOCKET_FAILURES.has(code) || UNAVAILABLE_CODES.has(code),
  messages: [
    /Can't add new command when connection is in closed state/i,
    /Pool is closed/i,
    /Connection is not established/i,
    TYPEORM_NOT_CONNECTED,
  ],
  retryAfterSeconds: 2,
  // ER_DUP_ENTRY
  duplicateKey: ({ code, errno }) => errno === 1062 || code === 'ER_DUP_ENTRY',
};
