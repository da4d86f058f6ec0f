import { type ArgumentMetadata, ValidationPipe, type ValidationPipeOptions } from '@nestjs/common';
import { type DomainError, InvalidEventTypeError, InvalidRequestError, MissingEventTypeError } from '@svc/domain';
import { REQUEST_VALIDATOR_OPTIONS, failedRules } from '@svc/presentation';
import { plainToInstance } from 'class-transformer';
import { BodySchema } from './body-schema';
import { type ValidationError, type ValidationOptions, ValidateBy, validateSync } from 'class-validator';

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
 * Nest's ValidationPipe with a cheaper path for request bodies, which are on
 * the hot path (analytics): a body is always what the JSON parser produced
 * (secure-json-parse, prototype keys refused; see request-body.ts), so the
 * stock pipe's guards against prototype keys, sparse arrays and binary
 * values have nothing to find there, and every rule of this API is
 * synchronous. A body of a DTO marked `@CheckedBySchema()` that passes is
 * recognised by the DTO's JSON schema, generated from its class-validator
 * decorators and compiled by ajv (BodySchema); every other body is read with
 * class-transformer and judged by class-validator's validateSync, which
 * builds the errors.
 * Anything but a body (query, params, a body without a DTO) goes through the
 * stock pipe.
 */
export class RequestValidationPipe extends ValidationPipe {
  constructor(options: ValidationPipeOptions) {
    super(options);
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'param') refuseNul(value, metadata.data);
    const { metatype } = metadata;
    if (metadata.type !== 'body' || !metatype || !this.toValidate(metadata)) return super.transform(value, metadata);
    const schema = BodySchema.of(metatype as new () => object);
    if (schema) {
      const read = schema.instanceOf(metatype as new () => object, value);
      if (schema.passes(read)) return read;
    }
    const entity = plainToInstance(metatype as new () => object, value ?? {});
    const errors = validateSync(entity, BODY_VALIDATOR_OPTIONS);
    if (errors.length > 0) throw await this.exceptionFactory(errors);
    return entity;
  }
}

/**
 * A path parameter holding NUL (U+0000, `%00`) is refused, 400
 * INVALID_REQUEST naming it, on every route and database alike: no id or
 * name holds one, and PostgreSQL refuses NUL in text. It runs in the pipe,
 * after the guards, so key errors still win (CONTRACT 2). Query values and
 * body fields are judged by their own rules (IsPlainText and the like), so
 * each route keeps its own code for them (`type` of the model list:
 * INVALID_PARAMETER).
 */
function refuseNul(value: unknown, name: string | undefined): void {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) throw new InvalidRequestError(`${name ?? 'a path parameter'} must not contain NUL (U+0000)`);
  } else if (name === undefined && typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) refuseNul(item, key);
  }
}

const BODY_VALIDATOR_OPTIONS = Object.freeze({ ...REQUEST_VALIDATOR_OPTIONS, validationError: { target: false } });

/**
 * The one ValidationPipe of the API (global; it runs after the guards, so key
 * errors win, CONTRACT 2): class-validator DTOs judged as the CLI judges them
 * (REQUEST_VALIDATOR_OPTIONS: unknown fields dropped), and a failure answered
 * as its rule says, else 400 INVALID_REQUEST with the first failed rule's
 * message, in field declaration order.
 */
export function requestValidationPipe(): ValidationPipe {
  return new RequestValidationPipe({
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

/**
 * One item of a body's list, judged as a body of `metatype` is judged (the
 * schema first when the DTO has one, else class-validator): the checked
 * item, or the error that body would answer. For lists whose items are
 * answered one by one (a batch of events), where one bad item must not
 * refuse the others.
 */
export function checkedItem<T extends object>(metatype: new () => T, value: unknown, name: string): T | DomainError {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return new InvalidRequestError(`${name} must be a JSON object`);
  const schema = BodySchema.of(metatype);
  if (schema) {
    const read = schema.instanceOf(metatype, { ...value });
    if (schema.passes(read)) return read;
  }
  const entity = plainToInstance(metatype, value);
  const errors = validateSync(entity, BODY_VALIDATOR_OPTIONS);
  return errors.length > 0 ? errorOf(errors) : entity;
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
      constraints: [maxBytes],
      validator: {
        validate: (value: unknown) =>
          typeof value === 'object' && value !== null && !Array.isArray(value) && Buffer.byteLength(JSON.stringify(value)) <= maxBytes,
        defaultMessage: (args) => `${args?.property} must be a JSON object of at most ${maxBytes} bytes`,
      },
    },
    options,
  );
}
