import { InvalidRequestError } from '@svc/domain';
import {
  environmentOption,
  expiresAtOption,
  keyStatusOption,
  licenseTypeOption,
  maxDevicesOption,
  monthlyLimitOption,
  pageLimitOption,
  tierOption,
} from './option-values';

describe('maxDevicesOption', () => {
  it.each([
    ['0', 0],
    ['5', 5],
    ['1000000', 1_000_000],
    ['tier', null],
    [' Tier ', null],
  ])('reads %j as %j', (text, value) => {
    expect(maxDevicesOption(text)).toBe(value);
  });

  it.each(['', '-1', '1.5', 'unlimited', '1000001'])('refuses %j with INVALID_REQUEST naming the option', (text) => {
    expect(() => maxDevicesOption(text)).toThrow(InvalidRequestError);
  });
});

describe('monthlyLimitOption', () => {
  it.each([
    ['0', 0],
    ['1500', 1500],
    ['unlimited', null],
    ['null', null],
    ['tier', 'tier'],
    [' Tier ', 'tier'],
  ])('reads %j as %j', (text, value) => {
    expect(monthlyLimitOption(text)).toBe(value);
  });

  it.each(['', '-1', '1.5', '1e3', 'lots', '99999999999999999999'])('refuses %j with INVALID_REQUEST naming the option', (text) => {
    expect(() => monthlyLimitOption(text)).toThrow(InvalidRequestError);
    expect(() => monthlyLimitOption(text)).toThrow(
      expect.objectContaining({ code: 'INVALID_REQUEST', hint: expect.stringContaining('--monthly-limit') }),
    );
  });
});

describe('expiresAtOption', () => {
  it('reads an RFC 3339 time with an offset', () => {
    expect(expiresAtOption('2027-01-01T01:00:00+01:00')).toEqual(new Date('2027-01-01T00:00:00Z'));
  });

  it.each(['tomorrow', '2027-01-01', '2027-02-30T00:00:00Z', '2027-01-01T00:00:00'])('refuses %j with INVALID_REQUEST', (text) => {
    expect(() => expiresAtOption(text)).toThrow(
      expect.objectContaining({ code: 'INVALID_REQUEST', hint: expect.stringContaining('--expires-at') }),
    );
  });
});

describe('licenseTypeOption', () => {
  it.each(['free', 'research', 'commercial', 'enterprise'])('reads %j', (text) => {
    expect(licenseTypeOption(text)).toBe(text);
  });

  it.each([undefined, '', 'platinum', 'Research', ' free'])("refuses %j with the admin API's INVALID_REQUEST message", (text) => {
    expect(() => licenseTypeOption(text)).toThrow(InvalidRequestError);
    expect(() => licenseTypeOption(text)).toThrow(
      expect.objectContaining({ code: 'INVALID_REQUEST', hint: 'license_type must be one of free, research, commercial, enterprise' }),
    );
  });
});

describe('environmentOption', () => {
  it.each(['live', 'test'])('reads %j', (text) => {
    expect(environmentOption(text)).toBe(text);
  });

  it.each(['', 'prod', 'LIVE'])("refuses %j with the admin API's INVALID_REQUEST message", (text) => {
    expect(() => environmentOption(text)).toThrow(
      expect.objectContaining({ code: 'INVALID_REQUEST', hint: 'environment must be live or test' }),
    );
  });
});

describe('tierOption', () => {
  it.each(['free', 'research', 'commercial', 'enterprise'])('reads %j', (text) => {
    expect(tierOption(text)).toBe(text);
  });

  it.each(['', 'platinum', 'Free'])('refuses %j with INVALID_REQUEST naming --tier', (text) => {
    expect(() => tierOption(text)).toThrow(
      expect.objectContaining({ code: 'INVALID_REQUEST', hint: '--tier must be one of free, research, commercial, enterprise' }),
    );
  });
});

describe('keyStatusOption', () => {
  it.each(['active', 'expired', 'revoked'])('reads %j', (text) => {
    expect(keyStatusOption(text)).toBe(text);
  });

  it.each(['', 'Active', 'rotated'])('refuses %j with INVALID_REQUEST naming --status', (text) => {
    expect(() => keyStatusOption(text)).toThrow(
      expect.objectContaining({ code: 'INVALID_REQUEST', hint: '--status must be one of active, expired, revoked' }),
    );
  });
});

describe('pageLimitOption', () => {
  it.each([
    ['1', 1],
    [' 50 ', 50],
    ['200', 200],
  ])('reads %j as %j', (text, limit) => {
    expect(pageLimitOption(text, 200)).toBe(limit);
  });

  it.each(['', '0', '201', '-1', '2.5', '1e2', 'ten', '99999999999999999999'])('refuses %j with INVALID_REQUEST naming --limit', (text) => {
    expect(() => pageLimitOption(text, 200)).toThrow(
      expect.objectContaining({ code: 'INVALID_REQUEST', hint: '--limit must be an integer from 1 to 200' }),
    );
  });
});
