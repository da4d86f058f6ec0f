import { InvalidRequestError, isPlainText, plainTextRule } from '@svc/domain';
import { type ClassConstructor, plainToInstance } from 'class-transformer';
import { type ValidationError, type ValidationOptions, type ValidatorOptions, ValidateBy, validate } from 'class-validator';

/**
 * How every request DTO is judged, by the API's ValidationPipe and by the CLI
 * alike: class-validator rules, unknown fields dropped (whitelist), and the
 * first failed rule, in the order the DTO declares its fields, reported.
 */
export const REQUEST_VALIDATOR_OPTIONS: Readonly<ValidatorOptions> = Object.freeze({ whitelist: true, forbidUnknownValues: false });

/** One failed rule: its message (naming the field) and the context a rule may carry. */
export interface FailedRule {
  readonly message: string;
  readonly context?: Readonly<Record<string, unknown>>;
}

/** The context a failed rule carries (class-validator types a rule's `context` option as `any`). */
function contextOf(error: ValidationError, rule: string): Readonly<Record<string, unknown>> | undefined {
  const context: unknown = error.contexts?.[rule];
  return typeof context === 'object' && context !== null ? (context as Record<string, unknown>) : undefined;
}

/** Every failed rule, depth first, in the order the DTO declares its fields. */
export function failedRules(errors: readonly ValidationError[]): FailedRule[] {
  return errors.flatMap((error) => [
    ...Object.entries(error.constraints ?? {}).map(([rule, message]) => ({ message, context: contextOf(error, rule) })),
    ...failedRules(error.children ?? []),
  ]);
}

/**
 * A plain record read as `type` and judged by its rules, as the API reads a
 * body: for records that do not come over HTTP (the CLI's options, the sample
 * catalogue). The first failed rule is an INVALID_REQUEST naming its field.
 */
export async function validatedRequest<T extends object>(type: ClassConstructor<T>, plain: object): Promise<T> {
  const request = plainToInstance(type, plain);
  const [failure] = failedRules(await validate(request, REQUEST_VALIDATOR_OPTIONS));
  if (failure) throw new InvalidRequestError(failure.message);
  return request;
}

/** A string for which a domain rule holds (the domain owns the rule; the DTO reports it, with `options.message`). */
export function IsStringThat(holds: (value: string) => boolean, options: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    { name: 'isStringThat', validator: { validate: (value: unknown) => typeof value === 'string' && holds(value) } },
    options,
  );
}

/** Any value, null included, is refused: a field the service sets itself. */
export function IsRefused(options: ValidationOptions): PropertyDecorator {
  return ValidateBy({ name: 'isRefused', validator: { validate: (value: unknown) => value === undefined } }, options);
}

/** Metadata name of `@IsPlainText()` (the API's body schemas translate it). */
export const IS_PLAIN_TEXT = 'isPlainText';

/**
 * Plain text (the domain's isPlainText): no control characters and
 * no bidirectional formatting characters; with `multiLine`, tab and line
 * breaks allowed. A value that is not a string passes: the field's own type
 * rule judges it. The message names `field`. One decorator for every free
 * text field of a request (names, organizations, descriptions, reasons,
 * addresses and the ids in bodies).
 */
export function IsPlainText(field: string, options: { readonly multiLine?: boolean } = {}): PropertyDecorator {
  const multiLine = options.multiLine === true;
  return ValidateBy(
    {
      name: IS_PLAIN_TEXT,
      constraints: [multiLine],
      validator: { validate: (value: unknown) => typeof value !== 'string' || isPlainText(value, multiLine) },
    },
    { message: plainTextRule(field, multiLine) },
  );
}
