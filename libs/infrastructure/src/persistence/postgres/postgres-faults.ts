import { type DriverFaults, SOCKET_FAILURES, TYPEORM_NOT_CONNECTED } from '../driver-faults';
import { QUERY_READ_TIMEOUT } from './answering-client';

/** SQLSTATEs: connection exceptions (08…), operator intervention (57P01-04: shutdown, crash, cannot connect now), a statement cancelled by its timeout (57014), too many connections (53300). */
const UNAVAILABLE_STATES = /^(08\d{3}|57P0[1-4]|57014|53300)$/;

/**
 * pg's failures that mean the server cannot answer now: a socket failure, one
 * of the SQLSTATEs above, a connection terminated or timed out, a query unanswered past its deadline, a pool
 * already ended (pg and pg-pool say so only in their messages), or TypeORM's driver not connected.
 * The pool reconnects by itself once the server is back.
 */
export const POSTGRES_FAULTS: DriverFaults = {
  code: (code) => SOCKET_FAILURES.has(code) || UNAVAILABLE_STATES.test(code),
  messages: [
    /Connection terminated/i,
    /timeout exceeded when trying to connect/i,
    new RegExp(QUERY_READ_TIMEOUT, 'i'),
    /Client has encountered a connection error/i,
    /Cannot use a pool after calling end on the pool/i,
    /Driver not Connected/i,
    TYPEORM_NOT_CONNECTED,
  ],
  retryAfterSeconds: 2,
  // character_not_in_repertoire: "invalid byte sequence for encoding UTF8: 0x00", NUL in a text parameter
  unstorableText: (code) => code === '22021',
  // unique_violation
  duplicateKey: ({ code }) => code === '23505',
};
