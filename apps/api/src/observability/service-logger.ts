import { type LoggerService } from '@nestjs/common';
import { type LogLevel } from '@svc/config';
import { hostname } from 'node:os';
import pino, { type DestinationStream, type Level, type Logger } from 'pino';
import { REDACTED, REDACT_PATHS } from './redaction';

export type ServiceLogger = Logger;
export type LogDestination = DestinationStream;

/** Lines are written to stdout in batches of this many bytes … */
const BATCH_BYTES = 4096;
/** … or at least this often. */
const FLUSH_EVERY_MS = 1000;

/**
 * The service's one JSON log (pino): one line per event, `level` as a word,
 * `time` in Unix milliseconds (pino's own, cheaper than an ISO string on
 * every line), redaction as a safety net. By default the lines go to stdout
 * through an asynchronous SonicBoom: nothing blocks the request path, writes
 * are batched (4 KiB, or every second: a write per request costs a system
 * call each) and flushed synchronously when the process exits. Tests and
 * tools pass a destination stream of their own.
 */
export function createServiceLogger(level: LogLevel, destination?: LogDestination): ServiceLogger {
  return pino(
    {
      level,
      base: { service: 'svc-licensing', pid: process.pid, hostname: hostname() },
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: [...REDACT_PATHS], censor: REDACTED },
    },
    destination ?? batchedStdout(),
  );
}

function batchedStdout(): LogDestination {
  const stdout = pino.destination({ dest: 1, sync: false, minLength: BATCH_BYTES });
  setInterval(() => {
    try {
      stdout.flush();
    } catch {
      // a write already in progress: the next tick flushes
    }
  }, FLUSH_EVERY_MS).unref();
  return stdout;
}

/** The fields of a request line (see observeRequests). */
export interface RequestLine {
  readonly req_id: string;
  readonly method: string;
  readonly url: string;
  readonly route: string;
  readonly status: number;
  readonly duration_ms: number;
  readonly ip: string;
}

/**
 * Writes request lines, the log's one line per answered request, through the
 * logger: level, time, the base fields, `event: "request"`, the line's fields,
 * msg. The caller checks the level.
 */
export function requestLineWriter(logger: ServiceLogger): (level: 'info' | 'error', line: RequestLine) => void {
  return (level, line) => {
    logger[level]({ event: 'request', ...line }, level === 'error' ? 'request failed' : 'request');
  };
}

/**
 * Nest's LoggerService over the JSON log, so Nest's own lines and every
 * `new Logger(context)` in the code become JSON lines with a `context` field.
 * An object message is merged into the line (e.g. audit events).
 */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: ServiceLogger) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  /**
   * Nest calls `(message, context)`, and for errors `(message, stack, context)`;
   * the context is the last string, a stack is a string with line breaks.
   */
  private write(level: Level, message: unknown, params: unknown[]): void {
    if (!this.logger.isLevelEnabled(level)) return;
    const fields: Record<string, unknown> = {};
    const rest = params.filter((param) => param !== undefined);
    const last = rest[rest.length - 1];
    if (typeof last === 'string' && !last.includes('\n')) {
      fields.context = last;
      rest.pop();
    }
    const stack = rest.find((param): param is string => typeof param === 'string' && param.includes('\n'));
    if (stack !== undefined) fields.stack = stack;
    if (message instanceof Error) {
      fields.err = message;
      this.logger[level](fields, message.message);
    } else if (typeof message === 'object' && message !== null) {
      this.logger[level]({ ...fields, ...(message as Record<string, unknown>) });
    } else {
      this.logger[level](fields, String(message));
    }
  }
}
