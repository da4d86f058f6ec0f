import { type LicenseType } from '../license/license-type';
import { DomainError } from '../shared/domain-error';

/** Unknown, not yet published, or another owner's custom model: the same answer (CONTRACT 7). */
export class ModelNotFoundError extends DomainError {
  readonly code = 'MODEL_NOT_FOUND' as const;
  constructor() {
    super('Model not found');
  }
}

/** The model is above the key's tier; the message names the tier it needs. */
export class InsufficientLicenseError extends DomainError {
  readonly code = 'INSUFFICIENT_LICENSE' as const;
  constructor(readonly requiredTier: LicenseType) {
    super('Insufficient license', `This model requires the ${requiredTier} license or higher`);
  }
}

/** A query parameter with a value the endpoint does not take (e.g. an unknown model type). */
export class InvalidParameterError extends DomainError {
  readonly code = 'INVALID_PARAMETER' as const;
  constructor(hint: string) {
    super('Invalid parameter', hint);
  }
}

/** Operators: a model of that name is already registered. */
export class ModelExistsError extends DomainError {
  readonly code = 'MODEL_EXISTS' as const;
  constructor(name: string) {
    super('Model already exists', `A model named ${name} is already registered; replace it instead`);
  }
}
