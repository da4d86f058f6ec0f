import { type LoggerService } from '@nestjs/common';

/** Nest's level names for the JSON log's levels, so lines read `warn …`, `error …`, `log …`. */
const NEST_LEVEL: Record<string, string> = { fatal: 'fatal', error: 'error', warn: 'warn', info: 'log', debug: 'debug', trace: 'verbose' };

/**
 * Keeps every line the service logs, so tests can check that no secret was
 * ever logged. It is the JSON log's destination stream (`logDestination`):
 * each JSON line is kept whole in `lines` (prefixed with its level, e.g.
 * `warn {"level":"warn",…}`) and parsed in `records`. It is also a Nest
 * LoggerService, for a test that passes it as `logger`.
 */
export class CapturingLogger implements LoggerService {
  readonly lines: string[] = [];
  /** The JSON lines, parsed. */
  readonly records: Array<Record<string, unknown>> = [];

  /** pino's destination stream interface: one JSON line per call. */
  write(chunk: string): void {
    for (const line of chunk.split('\n')) {
      if (line === '') continue;
      let record: Record<string, unknown>;
      try {
        record = JSON.parse(line) as Record<string, unknown>;
      } catch {
        this.lines.push(line);
        continue;
      }
      this.records.push(record);
      this.lines.push(`${NEST_LEVEL[String(record.level)] ?? String(record.level)} ${line}`);
    }
  }

  /** The request lines (one per answered request). */
  requestLines(): Array<Record<string, unknown>> {
    return this.records.filter((record) => record.event === 'request');
  }

  log(message: unknown, ...rest: unknown[]): void {
    this.record('log', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.record('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.record('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.record('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.record('verbose', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]): void {
    this.record('fatal', message, rest);
  }

  private record(level: string, message: unknown, rest: unknown[]): void {
    this.lines.push([level, message, ...rest].map((part) => (typeof part === 'string' ? part : safeJson(part))).join(' '));
  }
}

function safeJson(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}\n${value.stack ?? ''}`;
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}
