import {
  InvalidRequestError,
  KEY_ENVIRONMENTS,
  type KeyEnvironment,
  LICENSE_TYPES,
  type LicenseType,
  type MonthlyLimitChoice,
  isLicenseType,
  ROTATION_GRACE_BOUNDS,
  isMonthlyLimit,
  isRotationGrace,
  parseRfc3339,
} from '@svc/domain';

/**
 * Turns the text of CLI options into the values the use cases take. A bad
 * value is an INVALID_REQUEST, as the same value in an admin API body is.
 */

/** `--license-type`: one of the tiers, as written (required: absent is refused too). */
export function licenseTypeOption(text: string | undefined): LicenseType {
  if (!isLicenseType(text)) throw new InvalidRequestError(`license_type must be one of ${LICENSE_TYPES.join(', ')}`);
  return text;
}

/** `--environment`: `live` or `test`, as written. */
export function environmentOption(text: string): KeyEnvironment {
  const environment = KEY_ENVIRONMENTS.find((name) => name === text);
  if (!environment) throw new InvalidRequestError(`environment must be ${KEY_ENVIRONMENTS.join(' or ')}`);
  return environment;
}

/** `--grace-seconds`: a whole number of seconds within the rotation's bounds (CONTRACT 16). */
export function graceSecondsOption(text: string): number {
  const seconds = /^\d+$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!isRotationGrace(seconds)) {
    throw new InvalidRequestError(`--grace-seconds must be an integer from ${ROTATION_GRACE_BOUNDS.min} to ${ROTATION_GRACE_BOUNDS.max}`);
  }
  return seconds;
}

/** `--monthly-limit`: an integer >= 0, `unlimited` (null) or `tier` (the tier's limit). */
export function monthlyLimitOption(text: string): MonthlyLimitChoice {
  const word = text.trim().toLowerCase();
  if (word === 'tier') return 'tier';
  if (word === 'unlimited' || word === 'null') return null;
  if (/^\d+$/.test(word) && isMonthlyLimit(Number(word))) return Number(word);
  throw new InvalidRequestError('--monthly-limit must be an integer >= 0, "unlimited" or "tier"');
}

/** `--expires-at`: an RFC 3339 time with an explicit offset. */
export function expiresAtOption(text: string): Date {
  const at = parseRfc3339(text.trim());
  if (!at) throw new InvalidRequestError('--expires-at must be an RFC 3339 time such as 2027-01-01T00:00:00Z');
  return at;
}
