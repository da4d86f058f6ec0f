import { LoggerService } from '@nestjs/common';

/** Keeps every line the service logs, so tests can check that no secret was ever logged. */
export class CapturingLogger implements LoggerService {
  readonly lines: string[] = [];

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
