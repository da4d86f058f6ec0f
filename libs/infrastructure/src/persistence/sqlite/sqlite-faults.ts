import { type DriverFaults } from '../driver-faults';

/**
 * better-sqlite3's failures that mean the file cannot answer now: busy or
 * locked past the busy timeout, not openable, an I/O error, or the connection
 * closed. A lock is released within a busy timeout, so the retry hint is short.
 */
export const SQLITE_FAULTS: DriverFaults = {
  code: (code) => /^SQLITE_(BUSY|LOCKED|CANTOPEN|IOERR)/.test(code),
  messages: [/database is locked/i, /The database connection is not open/i],
  retryAfterSeconds: 1,
  duplicateKey: ({ code }) => code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE',
};
