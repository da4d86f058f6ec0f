import { InvalidRequestError } from '@svc/domain';
import { environmentOption, expiresAtOption, licenseTypeOption, monthlyLimitOption } from './option-values';

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
