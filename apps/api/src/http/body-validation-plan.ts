import { type ValidationArguments, ValidationTypes, getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

/** One rule of a property: class-validator's own constraint, with the arguments it is declared with. */
interface Rule {
  readonly validate: (value: unknown, args: ValidationArguments) => unknown;
  readonly constraints: unknown[];
}

interface PropertyRules {
  readonly property: string;
  /** `@IsOptional()` / `@ValidateIf(...)`: every one must hold for the rules to apply. */
  readonly conditions: ReadonlyArray<(object: object, value: unknown) => boolean>;
  readonly rules: readonly Rule[];
}

/** The metadata kinds the plan runs; a DTO with any other (nested, promise, `@IsDefined`, `each`, groups) has no plan. */
const PLANNED: readonly string[] = [ValidationTypes.CUSTOM_VALIDATION, ValidationTypes.CONDITIONAL_VALIDATION, ValidationTypes.WHITELIST];

/**
 * Declared field types class-transformer leaves as JSON gave them: a DTO with
 * a field of another type (a Date, a nested class) is read by class-transformer.
 */
const JSON_FIELD_TYPES: readonly unknown[] = [String, Number, Boolean, Object, Array, undefined];

/**
 * The success path of class-validator's `validateSync` for a flat request
 * DTO, worked out once per class from class-validator's own metadata and run
 * with its own constraint implementations: unknown fields are dropped
 * (whitelist), then each property's conditions and rules are evaluated in
 * declaration order, stopping at the first failure. It answers only whether
 * the body passes; a body that fails is judged again by `validateSync`
 * itself, which builds the errors. So class-validator stays the source of
 * every rule and message; what the plan saves is the executor's per-call
 * metadata look-ups and allocations on the hot path (docs/PERFORMANCE.md).
 * A test holds the plan's verdict equal to validateSync's over generated
 * bodies for every body DTO of the API.
 */
export class BodyValidationPlan {
  private static readonly plans = new WeakMap<object, BodyValidationPlan | null>();

  private constructor(
    private readonly properties: readonly PropertyRules[],
    private readonly known: ReadonlySet<string>,
  ) {}

  /** The plan of a DTO class, or null when it declares anything the plan does not run. */
  static of(metatype: new () => object): BodyValidationPlan | null {
    let plan = this.plans.get(metatype);
    if (plan === undefined) {
      plan = this.planOf(metatype);
      this.plans.set(metatype, plan);
    }
    return plan;
  }

  /** The body as class-transformer reads it into a flat DTO: the class's instance with the body's fields. */
  instanceOf<T extends object>(metatype: new () => T, body: unknown): T {
    return Object.assign(new metatype(), body ?? {});
  }

  /** Drops unknown fields from `entity` (as the whitelist does) and answers whether every rule holds. */
  passes(entity: Record<string, unknown>): boolean {
    for (const key of Object.keys(entity)) if (!this.known.has(key)) delete entity[key];
    for (const { property, conditions, rules } of this.properties) {
      const value = entity[property];
      if (!conditions.every((condition) => condition(entity, value))) continue;
      const args: ValidationArguments = { targetName: entity.constructor.name, property, object: entity, value, constraints: [] };
      for (const rule of rules) {
        args.constraints = rule.constraints;
        if (!rule.validate(value, args)) return false;
      }
    }
    return true;
  }

  private static planOf(metatype: new () => object): BodyValidationPlan | null {
    const storage = getMetadataStorage();
    const metadatas: ValidationMetadata[] = storage.getTargetValidationMetadatas(metatype, '', false, false);
    if (metadatas.some((m) => !PLANNED.includes(m.type) || m.each || m.always || (m.groups?.length ?? 0) > 0)) return null;
    if (metadatas.some((m) => !JSON_FIELD_TYPES.includes(Reflect.getMetadata('design:type', metatype.prototype, m.propertyName))))
      return null;
    const byProperty = new Map<string, { conditions: PropertyRules['conditions'][number][]; rules: Rule[] }>();
    for (const metadata of metadatas) {
      const entry = byProperty.get(metadata.propertyName) ?? { conditions: [], rules: [] };
      byProperty.set(metadata.propertyName, entry);
      if (metadata.type === ValidationTypes.CONDITIONAL_VALIDATION) {
        entry.conditions.push(metadata.constraints[0] as PropertyRules['conditions'][number]);
      } else if (metadata.type === ValidationTypes.CUSTOM_VALIDATION) {
        for (const constraint of storage.getTargetValidatorConstraints(metadata.constraintCls)) {
          if (constraint.async) return null;
          const instance = constraint.instance as { validate: Rule['validate'] };
          entry.rules.push({ validate: (value, args) => instance.validate(value, args), constraints: metadata.constraints ?? [] });
        }
      }
    }
    const properties = [...byProperty.entries()].map(([property, entry]) => ({ property, ...entry }));
    return new BodyValidationPlan(properties, new Set(byProperty.keys()));
  }
}
