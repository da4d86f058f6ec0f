import 'reflect-metadata';
import { REQUEST_VALIDATOR_OPTIONS, ModelRecordRequest } from '@svc/presentation';
import { plainToInstance } from 'class-transformer';
import { IsOptional, ValidateNested, getMetadataStorage, validateSync } from 'class-validator';
import fc from 'fast-check';
import { CreateKeyRequest } from '../modules/admin/dto/create-key.request';
import { AdminRevokeKeyRequest, AdminRotateKeyRequest } from '../modules/admin/dto/revoke-key.request';
import { UpdateKeyRequest } from '../modules/admin/dto/update-key.request';
import { LogEventRequest } from '../modules/analytics/dto/log-event.request';
import { RevokeKeyRequest, RotateKeyRequest } from '../shared/dto/key.request';
import { BodyValidationPlan } from './body-validation-plan';

/** Every DTO the API reads a body into (`@Body()` in the controllers) that has a plan. */
const PLANNED_BODY_DTOS: Array<new () => object> = [
  LogEventRequest,
  RevokeKeyRequest,
  RotateKeyRequest,
  CreateKeyRequest,
  UpdateKeyRequest,
  AdminRevokeKeyRequest,
  AdminRotateKeyRequest,
];
/** The body DTOs without a plan: the pipe reads them with class-transformer and class-validator judges them itself. */
const UNPLANNED_BODY_DTOS: Array<new () => object> = [ModelRecordRequest];

/** Values near every rule's edges: enum members and near misses, blanks, lengths, numbers, nulls, shapes. */
const VALUES: unknown[] = [
  ...['inference', 'model_load', 'error', 'Inference', ' inference', 'batch', 'streaming', 'free', 'research', 'enterprise', 'platinum'],
  ...['live', 'test', 'tier', '2027-01-01T00:00:00Z', '2027-02-30T00:00:00Z', 'tomorrow', 'ada@example.org', 'not-an-email'],
  ...['', '   ', 'x', 'motor_imagery_4class_v1', 'a'.repeat(200), 'a'.repeat(201), 'r'.repeat(1000), 'r'.repeat(1001), 'e'.repeat(2001)],
  ...[0, 1, -1, 1.5, 12.5, 604800, 604801, 1e12, 1e13, 2 ** 53, Number.MAX_SAFE_INTEGER + 2, true, false, null, undefined],
  ...[{}, { trials: 40, accuracy: 0.82 }, { big: 'x'.repeat(17 * 1024) }, [], ['inference'], [1, 2]],
];

function fieldsOf(dto: new () => object): string[] {
  return [
    ...new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(dto, '', false, false)
        .map((m) => m.propertyName),
    ),
  ];
}

function bodies(dto: new () => object): fc.Arbitrary<Record<string, unknown>> {
  const keys = [...fieldsOf(dto), 'api_key', 'surprise'];
  return fc
    .uniqueArray(fc.tuple(fc.constantFrom(...keys), fc.constantFrom(...VALUES)), { selector: ([key]) => key, maxLength: keys.length })
    .map((entries) => Object.fromEntries(entries));
}

/** class-validator's own verdict, as the stock pipe reaches it: class-transformer, then validateSync. */
function judgedByClassValidator(dto: new () => object, body: object): { passes: boolean; entity: object } {
  const entity = plainToInstance(dto, structuredClone(body));
  return { passes: validateSync(entity, REQUEST_VALIDATOR_OPTIONS).length === 0, entity };
}

describe(BodyValidationPlan.name, () => {
  it('has a plan for the hot path bodies (analytics events, revocations) and none where class-transformer must read', () => {
    expect(BodyValidationPlan.of(LogEventRequest)).not.toBeNull();
    expect(BodyValidationPlan.of(RevokeKeyRequest)).not.toBeNull();
    class WithDate {
      @IsOptional()
      readonly at?: Date;
    }
    class WithNested {
      @ValidateNested()
      readonly inner?: object;
    }
    expect(BodyValidationPlan.of(WithDate)).toBeNull();
    expect(BodyValidationPlan.of(WithNested)).toBeNull();
    for (const dto of UNPLANNED_BODY_DTOS)
      expect({ dto: dto.name, plan: BodyValidationPlan.of(dto) }).toEqual({ dto: dto.name, plan: null });
  });

  it.each(PLANNED_BODY_DTOS.map((dto) => [dto.name, dto] as const))(
    '%s: has a plan, which passes exactly the bodies class-validator passes, and reads them to the same fields',
    (_name, dto) => {
      const plan = BodyValidationPlan.of(dto);
      expect(plan).not.toBeNull();
      if (plan === null) return;
      fc.assert(
        fc.property(bodies(dto), (body) => {
          const expected = judgedByClassValidator(dto, body);
          const read = plan.instanceOf(dto, structuredClone(body)) as Record<string, unknown>;
          expect(plan.passes(read)).toBe(expected.passes);
          if (expected.passes) {
            expect(read).toBeInstanceOf(dto);
            expect({ ...read }).toEqual({ ...expected.entity });
          }
        }),
        { numRuns: 3000 },
      );
    },
  );
});
