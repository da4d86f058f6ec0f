import { ValidationPipe } from '@nestjs/common';
import { DomainError, InvalidEventTypeError, InvalidRequestError, MissingEventTypeError } from '@svc/domain';
import { REQUEST_VALIDATOR_OPTIONS, failedRules } from '@svc/presentation';
import { ValidationError, ValidationOptions, ValidateBy } from 'class-validator';

/**
 * The error a failed rule answers, when it is not INVALID_REQUEST: a rule
 * names it with `answers(...)` (class-validator's `context`, which it reports
 * only for a rule with a non-empty message). The first in this order wins.
 */
const SPECIFIC_ERRORS = {
  MISSING_EVENT_TYPE: () => new MissingEventTypeError(),
  INVALID_EVENT_TYPE: () => new InvalidEventTypeError(),
} as const;
type SpecificCode = keyof typeof SPECIFIC_ERRORS;

/** Validation options for a rule whose failure answers `code` instead of INVALID_REQUEST. */
export function answers(code: SpecificCode, options: ValidationOptions = {}): ValidationOptions {
  return { ...options, context: { code } };
}

/**
 * The one ValidationPipe of the API (global; it runs after the guards, so key
 * errors win, CONTRACT 2): class-validator DTOs judged as the CLI judges them
 * (REQUEST_VALIDATOR_OPTIONS: unknown fields dropped), and a failure answered
 * as its rule says, else 400 INVALID_REQUEST with the first failed rule's
 * message, in field declaration order.
 */
export function requestValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    ...REQUEST_VALIDATOR_OPTIONS,
    transform: true,
    exceptionFactory: (errors) => errorOf(errors),
  });
}

function errorOf(errors: ValidationError[]): DomainError {
  const failures = failedRules(errors);
  for (const code of Object.keys(SPECIFIC_ERRORS) as SpecificCode[]) {
    if (failures.some((failure) => failure.context?.code === code)) return SPECIFIC_ERRORS[code]();
  }
  return new InvalidRequestError(failures[0]?.message ?? 'invalid request body');
}

/** Present: not absent, not null, not a string that is empty after trimming. */
export function IsPresent(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isPresent',
      validator: {
        validate: (value: unknown) => value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === ''),
        defaultMessage: (args) => `${args?.property} is required`,
      },
    },
    options,
  );
}

/** A JSON object (not an array) whose JSON text is at most `maxBytes` bytes of UTF-8. */
export function IsSmallJsonObject(maxBytes: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isSmallJsonObject',
      validator: {
        validate: (value: unknown) =>
          typeof value === 'object' && value !== null && !Array.isArray(value) && Buffer.byteLength(JSON.stringify(value)) <= maxBytes,
        defaultMessage: (args) => `${args?.property} must be a JSON object of at most ${maxBytes} bytes`,
      },
    },
    options,
  );
}
