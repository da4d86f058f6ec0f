import { InvalidRequestError } from '../shared/domain-error';
import { LICENSE_TYPES, LicenseType, isLicenseType, meetsTier, rankOf } from '../license/license-type';
import { InvalidParameterError } from './model.errors';

/** The three classifier kinds the registry carries (SPEC 2.4); nothing else is listed. */
export const MODEL_TYPES = ['SvcLDA', 'SvcQDA', 'SvcProbit'] as const;
export type ModelType = (typeof MODEL_TYPES)[number];

export function isModelType(value: unknown): value is ModelType {
  return typeof value === 'string' && (MODEL_TYPES as readonly string[]).includes(value);
}

/** Bounds on what an operator may describe (CONTRACT 7 and 12). */
export const MODEL_LIMITS = Object.freeze({
  versionLength: 40,
  paradigmLength: 64,
  maxCount: 1_000_000,
  downloadUrlLength: 2048,
  descriptionLength: 2000,
  shortTextLength: 200,
  metadataBytes: 16 * 1024,
});

/** Lowercase letters, digits, `_`, `.`, `-`; at most 100 characters; `list` is a route, not a name. */
const NAME_FORM = /^[a-z0-9][a-z0-9_.-]{0,99}$/;
const RESERVED_NAMES: readonly string[] = ['list'];
/** Dotted digits: `1`, `1.0`, `2.10.3`. */
const VERSION_FORM = /^\d+(\.\d+)*$/;
/** An open list (`motor_imagery`, `p300`, `ssvep`, ...), but identifier-shaped. */
const PARADIGM_FORM = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const CHECKSUM_FORM = /^sha256:[0-9a-f]{64}$/;

export function isModelName(value: unknown): value is string {
  return typeof value === 'string' && NAME_FORM.test(value) && !RESERVED_NAMES.includes(value);
}

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

/** Published: a key can download it, from the store or from an explicit address. Otherwise it is not listed. */
export function isPublished(model: Model): boolean {
  return model.storedFile !== null || model.downloadUrl !== null;
}

/** Megabytes as SPEC 2.4 counts them: bytes / 1,000,000, unrounded. */
export function sizeMbOf(model: Model): number | null {
  return model.sizeBytes === null ? null : model.sizeBytes / 1_000_000;
}

/** The tier a key needs: `requires_license`, and at least commercial for a custom model. */
export function requiredTierOf(model: Model): LicenseType {
  if (model.ownerUserId !== null && rankOf(model.requiresLicense) < rankOf(CUSTOM_MODEL_TIER)) return CUSTOM_MODEL_TIER;
  return model.requiresLicense;
}

/** Who is asking: the key's tier and its user. */
export interface ModelViewer {
  readonly licenseType: LicenseType;
  readonly userId: string;
}

/**
 * What a key may know of a model (CONTRACT 7): `not-found` for an unpublished
 * model or another owner's custom model (its existence is not revealed);
 * `insufficient` for a model above the key's tier (the owner's own key below
 * commercial included); `visible` otherwise.
 */
export type ModelVisibility = 'visible' | 'not-found' | 'insufficient';

export function visibilityOf(model: Model, viewer: ModelViewer): ModelVisibility {
  if (!isPublished(model)) return 'not-found';
  if (model.ownerUserId !== null && model.ownerUserId !== viewer.userId) return 'not-found';
  return meetsTier(viewer.licenseType, requiredTierOf(model)) ? 'visible' : 'insufficient';
}

/** Registry order: by paradigm, then by name (plain code-unit order, the same on every database). */
export function compareModels(a: Model, b: Model): number {
  return compareText(a.paradigm, b.paradigm) || compareText(a.name, b.name);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The public list's filters: `paradigm` matches exactly (any string); `type` must be one of the three. */
export interface ModelFilter {
  readonly paradigm?: string;
  readonly type?: ModelType;
}

/**
 * Reads the list's query filters. A value given twice (an array) or not a
 * string, or a type that is not one of the three: INVALID_PARAMETER.
 */
export function readModelFilter(query: { readonly paradigm?: unknown; readonly type?: unknown }): ModelFilter {
  const paradigm = query.paradigm;
  if (paradigm !== undefined && typeof paradigm !== 'string') {
    throw new InvalidParameterError('paradigm must be given once, as a string');
  }
  const type = query.type;
  if (type !== undefined && !isModelType(type)) {
    throw new InvalidParameterError(`type must be one of ${MODEL_TYPES.join(', ')}`);
  }
  return { ...(paradigm !== undefined ? { paradigm } : {}), ...(type !== undefined ? { type } : {}) };
}

export function matchesFilter(model: Model, filter: ModelFilter): boolean {
  return (filter.paradigm === undefined || model.paradigm === filter.paradigm) && (filter.type === undefined || model.type === filter.type);
}

/** Fields the service computes from the file: never accepted from an operator. */
const COMPUTED_FIELDS = ['checksum', 'size_mb', 'size_bytes'] as const;

/**
 * Judges an operator's model record (SPEC 2.4 fields in snake case, plus
 * `owner_user_id`), the same for the admin API and the CLI. Throws
 * INVALID_REQUEST naming the first bad field. `checksum`, `size_mb` and
 * `size_bytes` are refused: they are computed from the uploaded file.
 * Unknown fields are ignored. `name`, when `expectedName` is given, may be
 * left out and must otherwise equal it (a model is not renamed).
 */
export function readModelDescription(record: Readonly<Record<string, unknown>>, expectedName?: string): ModelDescription {
  for (const field of COMPUTED_FIELDS) {
    if (record[field] !== undefined) {
      throw new InvalidRequestError(`${field} is computed from the uploaded model file and cannot be set`);
    }
  }
  const name = record.name === undefined && expectedName !== undefined ? expectedName : record.name;
  if (!isModelName(name)) {
    throw new InvalidRequestError('name must be 1-100 lowercase letters, digits, "_", "." or "-", starting with a letter or digit (and not "list")');
  }
  if (expectedName !== undefined && name !== expectedName) {
    throw new InvalidRequestError('name must match the model in the path (a model cannot be renamed)');
  }
  const requiresLicense = record.requires_license;
  if (!isLicenseType(requiresLicense)) {
    throw new InvalidRequestError(`requires_license must be one of ${LICENSE_TYPES.join(', ')}`);
  }
  const ownerUserId = nullable(record, 'owner_user_id', (v): v is string => typeof v === 'string' && v.length >= 1 && v.length <= 40,
    'must be a user id');
  if (ownerUserId !== null && rankOf(requiresLicense) < rankOf(CUSTOM_MODEL_TIER)) {
    throw new InvalidRequestError('requires_license must be commercial or enterprise for a custom model (one with owner_user_id)');
  }
  return {
    name,
    version: required(record, 'version', (v): v is string =>
      typeof v === 'string' && v.length <= MODEL_LIMITS.versionLength && VERSION_FORM.test(v), 'must be dotted digits such as 1.0.2'),
    type: required(record, 'type', isModelType, `must be one of ${MODEL_TYPES.join(', ')}`),
    paradigm: required(record, 'paradigm', (v): v is string => typeof v === 'string' && PARADIGM_FORM.test(v),
      'must be 1-64 lowercase letters, digits, "_" or "-" (e.g. motor_imagery, p300, ssvep)'),
    nFeatures: required(record, 'n_features', countOf(1), `must be an integer from 1 to ${MODEL_LIMITS.maxCount}`),
    nClasses: required(record, 'n_classes', countOf(2), `must be an integer from 2 to ${MODEL_LIMITS.maxCount}`),
    downloadUrl: nullable(record, 'download_url', isDownloadUrl, `must be an http(s) URL of at most ${MODEL_LIMITS.downloadUrlLength} characters`),
    requiresLicense,
    ownerUserId,
    metadata: readMetadata(record.metadata),
  };
}

/** A model's metadata (SPEC 2.4): the five documented fields, typed; extra fields are kept. */
function readMetadata(value: unknown): ModelMetadata {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidRequestError('metadata must be an object with description, training_subjects, accuracy, feature_type and recommended_use');
  }
  if (new TextEncoder().encode(JSON.stringify(value)).length > MODEL_LIMITS.metadataBytes) {
    throw new InvalidRequestError(`metadata must be at most ${MODEL_LIMITS.metadataBytes} bytes of JSON`);
  }
  const m = value as Readonly<Record<string, unknown>>;
  const text = (field: string, max: number): string =>
    required(m, field, (v): v is string => typeof v === 'string' && v.length <= max, `must be a string of at most ${max} characters`, 'metadata.');
  return {
    ...m,
    description: text('description', MODEL_LIMITS.descriptionLength),
    training_subjects: required(m, 'training_subjects', countOf(0), 'must be an integer >= 0', 'metadata.'),
    accuracy: text('accuracy', MODEL_LIMITS.shortTextLength),
    feature_type: text('feature_type', MODEL_LIMITS.shortTextLength),
    recommended_use: text('recommended_use', MODEL_LIMITS.descriptionLength),
  };
}

function required<T>(body: Readonly<Record<string, unknown>>, field: string, accept: (v: unknown) => v is T, rule: string, prefix = ''): T {
  const value = body[field];
  if (value === undefined || value === null) throw new InvalidRequestError(`${prefix}${field} is required`);
  if (!accept(value)) throw new InvalidRequestError(`${prefix}${field} ${rule}`);
  return value;
}

function nullable<T>(body: Readonly<Record<string, unknown>>, field: string, accept: (v: unknown) => v is T, rule: string): T | null {
  const value = body[field];
  if (value === undefined || value === null) return null;
  if (!accept(value)) throw new InvalidRequestError(`${field} ${rule}`);
  return value;
}

function countOf(min: number): (v: unknown) => v is number {
  return (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= min && v <= MODEL_LIMITS.maxCount;
}

function isDownloadUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > MODEL_LIMITS.downloadUrlLength || !/^https?:\/\/\S+$/i.test(value)) return false;
  try {
    return new URL(value).hostname !== '';
  } catch {
    return false;
  }
}

export function isChecksum(value: unknown): value is string {
  return typeof value === 'string' && CHECKSUM_FORM.test(value);
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
