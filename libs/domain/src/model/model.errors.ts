import { type LicenseType } from '../license/license-type';
import { DomainError, InvalidRequestError } from '../shared/domain-error';

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

/** What a record says about its file, by the domain's names (the edge names them on the wire). */
export const FILE_CLAIMS = ['checksum', 'sizeBytes', 'sizeMb'] as const;
export type FileClaim = (typeof FILE_CLAIMS)[number];

/** Which rule spanning a record's fields a request broke (`modelDescriptionOf`, `recordFileOf`). */
export type ModelRecordViolation =
  /** The record is replaced under one name and says another. */
  | { readonly rule: 'renamed' }
  /** A custom model (one with an owner) below the tier custom models need. */
  | { readonly rule: 'custom-model-below-tier'; readonly tier: LicenseType }
  /** An external file without its checksum or its size in bytes. */
  | { readonly rule: 'external-file-needs'; readonly claim: Exclude<FileClaim, 'sizeMb'> }
  /** An external file's size in megabytes that is not its size in bytes / 1,000,000. */
  | { readonly rule: 'size-mb-not-derived' }
  /** A claim about the file the service holds that differs from the stored file's value. */
  | { readonly rule: 'differs-from-stored-file'; readonly claim: FileClaim; readonly stored: string | number | null }
  /** A claim about a file the service computes (no external file): it cannot be given. */
  | { readonly rule: 'computed-from-stored-file'; readonly claim: FileClaim };

const CLAIM_NAMES: Readonly<Record<FileClaim, string>> = {
  checksum: 'checksum',
  sizeBytes: 'size in bytes',
  sizeMb: 'size in megabytes',
};

/** The rule, as the domain states it; the edge says how to fix the request (its own field names). */
function ruleOf(violation: ModelRecordViolation): string {
  switch (violation.rule) {
    case 'renamed':
      return 'a model cannot be renamed';
    case 'custom-model-below-tier':
      return `a custom model requires the ${violation.tier} license or higher`;
    case 'external-file-needs':
      return `an external file needs its ${CLAIM_NAMES[violation.claim]}`;
    case 'size-mb-not-derived':
      return 'the size in megabytes is the size in bytes / 1000000';
    case 'differs-from-stored-file':
      return `the ${CLAIM_NAMES[violation.claim]} must be the stored file's (${violation.stored ?? 'none'})`;
    case 'computed-from-stored-file':
      return `the ${CLAIM_NAMES[violation.claim]} is computed from the stored file; it is given only for an external file`;
  }
}

/** A model record that breaks a rule spanning its fields: INVALID_REQUEST, with the violation for the edge to word. */
export class ModelRecordError extends InvalidRequestError {
  constructor(readonly violation: ModelRecordViolation) {
    super(ruleOf(violation));
  }
}
