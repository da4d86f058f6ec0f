import { InvalidRequestError } from '../shared/domain-error';
import { type LicenseType, rankOf } from '../license/license-type';
import { MODEL_NAME_RULE, type ModelType, isModelName } from './model-forms';
import { ModelRecordError } from './model.errors';

/** What SPEC 2.4 says a model's metadata holds; extra operator fields are kept as given. */
export interface ModelMetadata {
  readonly description: string;
  readonly training_subjects: number;
  readonly accuracy: string;
  readonly feature_type: string;
  readonly recommended_use: string;
  readonly [extra: string]: unknown;
}

/** What an operator says about a model: everything but its file. */
export interface ModelDescription {
  readonly name: string;
  readonly version: string;
  readonly type: ModelType;
  readonly paradigm: string;
  readonly nFeatures: number;
  readonly nClasses: number;
  /** An explicit download address (a CDN, say); `null`: the file in the model store is served. */
  readonly downloadUrl: string | null;
  readonly requiresLicense: LicenseType;
  /** A custom model's owner (a user id): only that user's keys see it, at commercial or above. */
  readonly ownerUserId: string | null;
  readonly metadata: ModelMetadata;
}

/**
 * What an operator says about a model: a description whose `name` may be
 * left out when the model is already named (a record replaced in place).
 * Each field's own form is checked where the record is read (the edge's
 * request); `modelDescriptionOf` adds the rules that span fields.
 */
export type ModelDescriptionInput = Omit<ModelDescription, 'name'> & { readonly name?: string };

/** The model's file, as the model store holds it; checksum and size are computed from its bytes. */
export interface ModelFile {
  /** The file's name in the model store. */
  readonly storedFile: string;
  /** `sha256:<hex>` of the file's bytes. */
  readonly checksum: string;
  readonly sizeBytes: number;
}

/** A registry record (SPEC 2.4, CONTRACT 7). */
export interface Model extends ModelDescription {
  readonly storedFile: string | null;
  readonly checksum: string | null;
  readonly sizeBytes: number | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** The tier custom models need at least (SPEC 2.2: "custom models: commercial and above"). */
export const CUSTOM_MODEL_TIER: LicenseType = 'commercial';

/** Megabytes as SPEC 2.4 counts them: bytes / 1,000,000, unrounded. */
export function sizeMbOf(model: Model): number | null {
  return model.sizeBytes === null ? null : model.sizeBytes / 1_000_000;
}

/**
 * The record rules that span fields, the same for every edge. The name is
 * the model's identity: given, or the one the record is replaced under
 * (`existingName`), well formed, and equal to it (a model is not renamed).
 * A custom model (one with an owner) requires CUSTOM_MODEL_TIER or above.
 * Throws INVALID_REQUEST (ModelRecordError for the rules an edge words).
 */
export function modelDescriptionOf(input: ModelDescriptionInput, existingName?: string): ModelDescription {
  const name = input.name ?? existingName;
  if (name === undefined || !isModelName(name)) throw new InvalidRequestError(MODEL_NAME_RULE);
  if (existingName !== undefined && name !== existingName) throw new ModelRecordError({ rule: 'renamed' });
  if (input.ownerUserId !== null && rankOf(input.requiresLicense) < rankOf(CUSTOM_MODEL_TIER)) {
    throw new ModelRecordError({ rule: 'custom-model-below-tier', tier: CUSTOM_MODEL_TIER });
  }
  return {
    name,
    version: input.version,
    type: input.type,
    paradigm: input.paradigm,
    nFeatures: input.nFeatures,
    nClasses: input.nClasses,
    downloadUrl: input.downloadUrl,
    requiresLicense: input.requiresLicense,
    ownerUserId: input.ownerUserId,
    metadata: input.metadata,
  };
}

/** A new record from a description; the file (if any) comes from the model store. */
export function newModel(description: ModelDescription, file: ModelFile | null, at: Date): Model {
  return {
    ...description,
    storedFile: file?.storedFile ?? null,
    checksum: file?.checksum ?? null,
    sizeBytes: file?.sizeBytes ?? null,
    createdAt: at,
    updatedAt: at,
  };
}
