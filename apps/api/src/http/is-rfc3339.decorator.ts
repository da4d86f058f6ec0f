import { parseRfc3339 } from '@svc/domain';
import { type ValidationOptions, registerDecorator } from 'class-validator';

/** An RFC 3339 date-time with an explicit offset, e.g. `2027-01-01T00:00:00Z`. */
export function IsRfc3339(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isRfc3339',
      target: target.constructor,
      propertyName: String(propertyName),
      options: { message: `${String(propertyName)} must be an RFC 3339 time such as 2027-01-01T00:00:00Z`, ...options },
      validator: { validate: (value: unknown) => typeof value === 'string' && parseRfc3339(value) !== null },
    });
}
