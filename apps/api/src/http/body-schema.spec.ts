import 'reflect-metadata';
import { REQUEST_VALIDATOR_OPTIONS, ModelRecordRequest } from '@svc/presentation';
import { plainToInstance } from 'class-transformer';
import { IsOptional, IsString, ValidateNested, validateSync } from 'class-validator';
import fc from 'fast-check';
import { CreateKeyRequest } from '../modules/admin/dto/create-key.request';
import { AdminRevokeKeyRequest, AdminRotateKeyRequest } from '../modules/admin/dto/revoke-key.request';
import { UpdateKeyRequest } from '../modules/admin/dto/update-key.request';
import { BatchEventsRequest } from '../modules/analytics/dto/batch-events.request';
import { FieldEventRequest, LogEventRequest } from '../modules/analytics/dto/log-event.request';
import { ActivateDeviceRequest, DeviceRequest } from '../modules/devices/dto/device.request';
import { RevokeKeyRequest, RotateKeyRequest } from '../shared/dto/key.request';
import { BodySchema, CheckedBySchema } from './body-schema';
import { IsPresent } from './request-validation';

/** Every DTO the API reads a body into (`@Body()` in the controllers) that is checked by its schema first. */
const CHECKED_BODY_DTOS: Array<new () => object> = [
  LogEventRequest,
  FieldEventRequest,
  RevokeKeyRequest,
  RotateKeyRequest,
  AdminRevokeKeyRequest,
  AdminRotateKeyRequest,
  DeviceRequest,
  ActivateDeviceRequest,
  BatchEventsRequest,
];
/** The body DTOs judged by class-validator alone (conditions beyond `@IsOptional`, rules without a schema, nested records). */
/** A body of each checked DTO that passes, the base of the one-field variations below. */
const PASSING: ReadonlyMap<new () => object, Record<string, unknown>> = new Map<new () => object, Record<string, unknown>>([
  [LogEventRequest, { event_type: 'inference' }],
  [FieldEventRequest, { event_type: 'inference' }],
  [RevokeKeyRequest, {}],
  [RotateKeyRequest, {}],
  [AdminRevokeKeyRequest, {}],
  [AdminRotateKeyRequest, {}],
  [DeviceRequest, { fingerprint: 'f'.repeat(16) }],
  [ActivateDeviceRequest, { fingerprint: 'f'.repeat(16) }],
  [BatchEventsRequest, { events: [{ event_type: 'inference' }] }],
]);
const UNCHECKED_BODY_DTOS: Array<new () => object> = [ModelRecordRequest, CreateKeyRequest, UpdateKeyRequest];

/** Values near every rule's edges: enum members and near misses, blanks, lengths, numbers, nulls, shapes. */
const VALUES: unknown[] = [
  ...['inference', 'model_load', 'error', 'Inference', ' inference', 'batch', 'streaming', 'free', 'research', 'enterprise', 'platinum'],
  ...['live', 'test', 'tier', '2027-01-01T00:00:00Z', '2027-02-30T00:00:00Z', 'tomorrow', 'ada@example.org', 'not-an-email'],
  ...[
    '',
    '   ',
    'x',
    'motor_imagery_4class_v1',
    'a'.repeat(200),
    'a'.repeat(201),
    'f'.repeat(15),
    'f'.repeat(16),
    'f'.repeat(64),
    'f'.repeat(65),
    'f'.repeat(256),
    'f'.repeat(257),
    'r'.repeat(1000),
    'r'.repeat(1001),
    'e'.repeat(2001),
  ],
  ...[0, 1, -1, 1.5, 12.5, 604800, 604801, 1e12, 1e13, 2 ** 53, Number.MAX_SAFE_INTEGER + 2, true, false, null, undefined],
  ...[{}, { trials: 40, accuracy: 0.82 }, { big: 'x'.repeat(17 * 1024) }, [], ['inference'], [1, 2]],
  // plain text (IsPlainText): control characters, line breaks and tabs (allowed in multi-line text), bidirectional formatting
  ...[
    'a\u0000b',
    'line\nbreak',
    'cr\r\nlf',
    'tab\there',
    'esc\u001b',
    'c1\u0085',
    'sep\u2028x',
    'rlo\u202eexe.txt',
    'rlm\u200f',
    'pdi\u2069',
  ],
  ...['Zoë', 'محمد', 'Team 👩‍💻'],
  // idempotency keys and event times (CONTRACT 22)
  ...['0192f1c4-7e1a-7cc3-8a5e-3f1b2c4d5e6f', 'a.b_c:d-9', 'k'.repeat(128), 'k'.repeat(129), 'has space', 'slash/no'],
  ...['2026-11-28T09:30:00.123+02:00', '2026-11-28t09:30:00z', '2026-11-28T09:30:00', '2026-04-31T00:00:00Z', '2026-11-28T24:00:00Z'],
];

/** The DTO's fields, as its generated schema names them. */
function fieldsOf(dto: new () => object): string[] {
  return Object.keys(BodySchema.schemaOf(dto).properties ?? {});
}

/**
 * Bodies of any of the DTO's fields at edge values; half of them one or two fields off a passing body, so that a DTO
 * of many fields still gets bodies that pass (a body of random values almost never does).
 */
function bodies(dto: new () => object): fc.Arbitrary<Record<string, unknown>> {
  const keys = [...fieldsOf(dto), 'api_key', 'surprise'];
  const fields = (maxLength: number) =>
    fc.uniqueArray(fc.tuple(fc.constantFrom(...keys), fc.constantFrom(...VALUES)), { selector: ([key]) => key, maxLength });
  return fc.oneof(
    fields(keys.length).map((entries) => Object.fromEntries(entries)),
    fields(2).map((entries) => ({ ...PASSING.get(dto), ...Object.fromEntries(entries) })),
  );
}

/** class-validator's own verdict, as the stock pipe reaches it: class-transformer, then validateSync. */
function judgedByClassValidator(dto: new () => object, body: object): { passes: boolean; entity: object } {
  const entity = plainToInstance(dto, structuredClone(body));
  return { passes: validateSync(entity, REQUEST_VALIDATOR_OPTIONS).length === 0, entity };
}

describe(BodySchema.name, () => {
  it('checks the hot path bodies (analytics events, revocations) by schema, and only DTOs marked for it', () => {
    expect(BodySchema.of(LogEventRequest)).not.toBeNull();
    expect(BodySchema.of(RevokeKeyRequest)).not.toBeNull();
    for (const dto of UNCHECKED_BODY_DTOS) expect({ dto: dto.name, schema: BodySchema.of(dto) }).toEqual({ dto: dto.name, schema: null });
  });

  it('refuses to mark a DTO whose rule has no schema (a custom rule without a converter, a nested record)', () => {
    @CheckedBySchema()
    class WithNested {
      @ValidateNested()
      readonly inner?: object;
    }
    @CheckedBySchema()
    class Translatable {
      @IsOptional()
      @IsString()
      readonly name?: string;
      @IsPresent()
      readonly must!: string;
    }
    expect(() => BodySchema.of(WithNested)).toThrow(/has no JSON schema/);
    expect(BodySchema.of(Translatable)).not.toBeNull();
  });

  it.each(CHECKED_BODY_DTOS.map((dto) => [dto.name, dto] as const))(
    '%s: every field at every edge value, on a passing body: the schema agrees with class-validator',
    (_name, dto) => {
      const schema = BodySchema.of(dto);
      const base = PASSING.get(dto);
      expect(schema).not.toBeNull();
      expect(base).toBeDefined();
      if (schema === null || base === undefined) return;
      expect(judgedByClassValidator(dto, base).passes).toBe(true);
      let refused = 0;
      for (const field of fieldsOf(dto)) {
        for (const value of VALUES) {
          const body = { ...base, [field]: value };
          const expected = judgedByClassValidator(dto, body).passes;
          const passes = schema.passes(schema.instanceOf(dto, structuredClone(body)));
          // null in an optional field: class-validator passes it, the schema refuses it (class-validator then judges the body)
          expect({ field, value, passes }).toEqual({ field, value, passes: value === null ? false : expected });
          if (!expected) refused++;
        }
      }
      expect(refused).toBeGreaterThan(0);
    },
  );

  it.each(CHECKED_BODY_DTOS.map((dto) => [dto.name, dto] as const))(
    '%s: its schema passes exactly the bodies class-validator passes, and reads them to the same fields',
    (_name, dto) => {
      const schema = BodySchema.of(dto);
      expect(schema).not.toBeNull();
      if (schema === null) return;
      let passed = 0;
      let refused = 0;
      fc.assert(
        fc.property(bodies(dto), (body) => {
          const expected = judgedByClassValidator(dto, body);
          const read = schema.instanceOf(dto, structuredClone(body)) as Record<string, unknown>;
          const passes = schema.passes(read);
          if (passes) passed++;
          else refused++;
          // Never looser than class-validator; stricter only for null in an optional field (then class-validator judges).
          if (passes) expect(expected.passes).toBe(true);
          else if (expected.passes) expect(Object.values(body)).toContain(null);
          if (passes) {
            expect(read).toBeInstanceOf(dto);
            expect({ ...read }).toEqual({ ...expected.entity });
          }
        }),
        { numRuns: 3000 },
      );
      // the generated bodies reach both verdicts: the property was held on bodies that pass, not only on refused ones
      expect({ passed: passed > 0, refused: refused > 0 }).toEqual({ passed: true, refused: true });
    },
  );
});
