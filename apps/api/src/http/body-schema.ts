import Ajv, { type ValidateFunction } from 'ajv';
import { IS_INT, ValidationTypes } from 'class-validator';
import { targetConstructorToSchema } from 'class-validator-jsonschema';
import { PLAIN_TEXT_PATTERNS, parseRfc3339 } from '@svc/domain';
import { IS_PLAIN_TEXT } from '@svc/presentation';

/** The converters option of class-validator-jsonschema (its type is not exported by name). */
type SchemaConverters = NonNullable<NonNullable<Parameters<typeof targetConstructorToSchema>[1]>['additionalConverters']>;

/** Metadata key of `@CheckedBySchema()`. */
const CHECKED_BY_SCHEMA = 'svc:checked-by-schema';

/**
 * Marks a flat request DTO whose body is first checked by the JSON schema
 * class-validator-jsonschema generates from the DTO's own class-validator
 * decorators, compiled once by ajv (`BodySchema`). For a DTO whose rules all
 * translate (see CONVERTERS) and whose conditions are `@IsOptional()` or
 * hold for absent fields; body-schema.spec.ts holds the schema's verdict to
 * class-validator's for every DTO that carries it.
 */
export function CheckedBySchema(): ClassDecorator {
  return (target) => Reflect.defineMetadata(CHECKED_BY_SCHEMA, true, target);
}

/**
 * Rules class-validator-jsonschema does not translate, or translates more
 * loosely than class-validator judges (its documented `additionalConverters`):
 * - `@IsInt()` beside `@Min`/`@Max`: the library merges their `type: number`
 *   over `integer`; `multipleOf: 1` keeps the integer rule whatever the order;
 * - the API's own rules by name: `isPresent` (not null, not a blank string;
 *   `required` covers absent) and `isSmallJsonObject` (a JSON object of at
 *   most N bytes, through the `maxJsonBytes` keyword below) and `isPlainText`
 *   (the domain's plain text rule as a `pattern`) and `isRfc3339` (a date-time
 *   the domain's parseRfc3339 reads, through the `rfc3339` keyword below).
 * Any other custom rule becomes a `$ref` the schema does not define: such a
 * DTO has no schema, and class-validator judges every body of it.
 */
const CONVERTERS: SchemaConverters = {
  [IS_INT]: { type: 'integer', multipleOf: 1 },
  isPresent: { not: { anyOf: [{ type: 'null' }, { type: 'string', pattern: '^\\s*$' }] } },
  isSmallJsonObject: (meta: { constraints: unknown[] }) => ({ type: 'object', maxJsonBytes: meta.constraints[0] as number }),
  // a string's pattern (JSON schema ignores `pattern` for any other type, as the rule passes them)
  [IS_PLAIN_TEXT]: (meta: { constraints: unknown[] }) => ({
    pattern: meta.constraints[0] === true ? PLAIN_TEXT_PATTERNS.multiLine : PLAIN_TEXT_PATTERNS.oneLine,
  }),
  isRfc3339: () => ({ type: 'string', rfc3339: true }),
  [ValidationTypes.CONDITIONAL_VALIDATION]: {},
};

/**
 * One ajv for every body schema: unknown fields removed (class-validator's
 * whitelist), the first failure ends the check, string lengths in code
 * points (never shorter than class-validator's `isLength`).
 */
const ajv = new Ajv({ removeAdditional: true, allErrors: false, coerceTypes: false, useDefaults: false, strict: true, strictTypes: false });
ajv.addKeyword({
  keyword: 'maxJsonBytes',
  type: 'object',
  schemaType: 'number',
  validate: (max: number, data: unknown) => Buffer.byteLength(JSON.stringify(data)) <= max,
  errors: false,
});
ajv.addKeyword({
  keyword: 'rfc3339',
  type: 'string',
  schemaType: 'boolean',
  validate: (on: boolean, data: string) => !on || parseRfc3339(data) !== null,
  errors: false,
});

/**
 * The fast path of a body's check: a body that passes the compiled schema
 * passes class-validator's rules (the schema is never looser, and the spec
 * holds it equal over generated bodies); a body that does not is judged by
 * class-validator itself, which builds the errors and their messages. So
 * class-validator stays the source of every rule and message.
 */
export class BodySchema {
  private static readonly schemas = new WeakMap<object, BodySchema | null>();

  private constructor(private readonly check: ValidateFunction) {}

  /** The compiled schema of a DTO marked `@CheckedBySchema()`, else null. */
  static of(metatype: new () => object): BodySchema | null {
    let schema = this.schemas.get(metatype);
    if (schema === undefined) {
      schema = Reflect.getMetadata(CHECKED_BY_SCHEMA, metatype) === true ? this.compile(metatype) : null;
      this.schemas.set(metatype, schema);
    }
    return schema;
  }

  /** The body as class-transformer reads it into a flat DTO: the class's instance with the body's fields. */
  instanceOf<T extends object>(metatype: new () => T, body: unknown): T {
    return Object.assign(new metatype(), body ?? {});
  }

  /** Drops unknown fields from `entity` (as the whitelist does) and answers whether it passes the schema. */
  passes(entity: object): boolean {
    return this.check(entity) === true;
  }

  /** The JSON schema of a DTO, as generated (for the spec and for reading). */
  static schemaOf(metatype: new () => object): Record<string, unknown> {
    return targetConstructorToSchema(metatype, { additionalConverters: CONVERTERS }) as Record<string, unknown>;
  }

  private static compile(metatype: new () => object): BodySchema {
    const schema = this.schemaOf(metatype);
    const text = JSON.stringify(schema);
    if (text.includes('"$ref"')) {
      throw new Error(`${metatype.name} is marked @CheckedBySchema() but a rule of it has no JSON schema: ${text}`);
    }
    return new BodySchema(ajv.compile({ ...schema, additionalProperties: false }));
  }
}
