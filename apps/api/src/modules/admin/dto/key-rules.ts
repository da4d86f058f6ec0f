import { KEY_ENVIRONMENTS, LICENSE_TYPES, MONTHLY_LIMIT_BOUNDS } from '@svc/domain';
import { type ValidationOptions } from 'class-validator';

/**
 * The messages of the admin key bodies' rules (CONTRACT 12), each naming its
 * field; the lists and bounds are the domain's.
 */
export const LICENSE_TYPE_RULE: ValidationOptions = { message: `license_type must be one of ${LICENSE_TYPES.join(', ')}` };
export const ENVIRONMENT_RULE: ValidationOptions = { message: `environment must be ${KEY_ENVIRONMENTS.join(' or ')}` };

/** `monthly_limit` as a number: an integer within the domain's bounds (a safe integer >= 0). */
export const MONTHLY_LIMIT_NUMBER_SCHEMA = {
  type: 'integer',
  minimum: MONTHLY_LIMIT_BOUNDS.min,
  maximum: MONTHLY_LIMIT_BOUNDS.max,
} as const;
