import 'reflect-metadata';
import { ConfigError } from '@svc/config';
import { InvalidRequestError, KeyNotFoundError } from '@svc/domain';
import { CliUsageError } from './cli-usage-error';
import { reportFailure } from './failure-report';

function report(error: unknown, verbose = false): { status: number; lines: string[] } {
  const lines: string[] = [];
  const status = reportFailure(error, verbose, (line) => lines.push(line));
  return { status, lines };
}

describe('reportFailure', () => {
  it('prints a domain error as CODE: description (hint), status 1', () => {
    expect(report(new InvalidRequestError('license_type must be one of free'))).toEqual({
      status: 1,
      lines: ['INVALID_REQUEST: Invalid request (license_type must be one of free)'],
    });
    expect(report(new KeyNotFoundError('API key not found'))).toEqual({ status: 1, lines: ['KEY_NOT_FOUND: API key not found'] });
  });

  it('prints a configuration error as its lines, status 1', () => {
    expect(report(new ConfigError(['DATABASE_URL must be sqlite:<path> or postgres://…']))).toEqual({
      status: 1,
      lines: ['Invalid configuration: DATABASE_URL must be sqlite:<path> or postgres://…'],
    });
  });

  it('prints a usage error, status 1', () => {
    expect(report(new CliUsageError('keys needs a command'))).toEqual({ status: 1, lines: ['error: keys needs a command'] });
  });

  it('answers 2 for anything else, with the stack only when verbose', () => {
    const error = new Error('disk on fire');
    const quiet = report(error);
    expect(quiet.status).toBe(2);
    expect(quiet.lines[0]).toBe('error: disk on fire');
    expect(quiet.lines.join('\n')).not.toContain('failure-report.spec');
    const verbose = report(error, true);
    expect(verbose.status).toBe(2);
    expect(verbose.lines[1]).toBe(error.stack);
  });
});
