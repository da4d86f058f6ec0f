import {
  InvalidFormatError,
  InvalidKeyError,
  KeyExpiredError,
  KeyNotFoundError,
  KeyRevokedError,
  MissingKeyError,
} from '../api-key/api-key.errors';
import { UserNotFoundError } from '../user/user';
import { DOMAIN_ERROR_CODES } from './error-codes';
import { DomainError, InvalidRequestError } from './domain-error';

describe(DomainError.name, () => {
  it.each([
    [new MissingKeyError(), 'MISSING_KEY', 'MissingKeyError'],
    [new InvalidFormatError(), 'INVALID_FORMAT', 'InvalidFormatError'],
    [new InvalidKeyError(), 'INVALID_KEY', 'InvalidKeyError'],
    [new KeyExpiredError(), 'KEY_EXPIRED', 'KeyExpiredError'],
    [new KeyNotFoundError(), 'KEY_NOT_FOUND', 'KeyNotFoundError'],
    [new KeyRevokedError(), 'KEY_REVOKED', 'KeyRevokedError'],
    [new UserNotFoundError(), 'USER_NOT_FOUND', 'UserNotFoundError'],
    [new InvalidRequestError('email must be an e-mail address'), 'INVALID_REQUEST', 'InvalidRequestError'],
  ])('%p carries a code of the closed set and its class name', (error, code, name) => {
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe(code);
    expect(DOMAIN_ERROR_CODES).toContain(code);
    expect(error.name).toBe(name);
    expect(error.message).toBe(error.description);
  });

  it('uses the texts the contract fixes for unknown, revoked and not-found keys', () => {
    expect(new InvalidKeyError().description).toBe('Invalid or inactive API key');
    expect(new KeyNotFoundError().description).toBe('API key not found or already revoked');
  });

  it('puts the request rule in the hint', () => {
    expect(new InvalidRequestError('reason must be a string').hint).toBe('reason must be a string');
  });
});
