import {
  InvalidRequestError,
  KEY_ENVIRONMENTS,
  type KeyEnvironment,
  LICENSE_TYPES,
  type LicenseType,
  type MonthlyLimitChoice,
  type MaxDevicesOverride,
  isMaxDevices,
  MAX_DEVICES_BOUND,
  isLicenseType,
  ROTATION_GRACE_BOUNDS,
  isMonthlyLimit,
  isRotationGrace,
  KEY_STATUSES,
  type KeyStatus,
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

/** `--max-devices`: an integer >= 0 (the license's override, CONTRACT 23) or `tier` (null: back to the tier's). */
export function maxDevicesOption(text: string): MaxDevicesOverride {
  const word = text.trim().toLowerCase();
  if (word === 'tier' || word === 'null') return null;
  if (/^\d+$/.test(word) && isMaxDevices(Number(word))) return Number(word);
  throw new InvalidRequestError(`--max-devices must be an integer from 0 to ${MAX_DEVICES_BOUND}, or "tier"`);
}

/** `--expires-at`: an RFC 3339 time with an explicit offset. */
export function expiresAtOption(text: string): Date {
  const at = parseRfc3339(text.trim());
  if (!at) throw new InvalidRequestError('--expires-at must be an RFC 3339 time such as 2027-01-01T00:00:00Z');
  return at;
}

/** `--tier`: one of the tiers (license types), as written. */
export function tierOption(text: string): LicenseType {
  if (!isLicenseType(text)) throw new InvalidRequestError(`--tier must be one of ${LICENSE_TYPES.join(', ')}`);
  return text;
}

/** `--status`: a key's status now, as written. */
export function keyStatusOption(text: string): KeyStatus {
  const status = KEY_STATUSES.find((name) => name === text);
  if (!status) throw new InvalidRequestError(`--status must be one of ${KEY_STATUSES.join(', ')}`);
  return status;
}

/** `--limit`: a page size, a whole number from 1 to `max` (the admin API's bounds for the same list). */
export function pageLimitOption(text: string, max: number): number {
  const limit = /^\d+$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > max)
    throw new InvalidRequestError(`--limit must be an integer from 1 to ${max}`);
  return limit;
}
