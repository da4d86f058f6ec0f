import { ValidationPipe } from '@nestjs/common';
import { DomainError, InvalidEventTypeError, InvalidRequestError, MissingEventTypeError } from '@svc/domain';
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
 * errors win, CONTRACT 2): class-validator DTOs, unknown fields dropped, and a
 * failure answered as its rule says, else 400 INVALID_REQUEST naming the field.
 */
export function requestValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    transform: true,
    forbidUnknownValues: false,
    exceptionFactory: (errors) => errorOf(errors),
  });
}

function errorOf(errors: ValidationError[]): DomainError {
  const failures = flatten(errors);
  for (const code of Object.keys(SPECIFIC_ERRORS) as SpecificCode[]) {
    if (failures.some((failure) => failure.code === code)) return SPECIFIC_ERRORS[code]();
  }
  return new InvalidRequestError(failures[0]?.message ?? 'invalid request body');
}

/** Every failed rule, depth first, in the order the DTO declares its fields. */
function flatten(errors: readonly ValidationError[]): Array<{ message: string; code?: SpecificCode }> {
  return errors.flatMap((error) => [
    ...Object.entries(error.constraints ?? {}).map(([rule, message]) => ({
      message,
      code: (error.contexts?.[rule] as { code?: SpecificCode } | undefined)?.code,
    })),
    ...flatten(error.children ?? []),
  ]);
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
