import { InvalidRequestError } from '../shared/domain-error';
import { type LicenseType, meetsTier, rankOf } from '../license/license-type';
import { InvalidParameterError } from './model.errors';

/** The three classifier kinds the registry carries (SPEC 2.4); nothing else is listed. */
export const MODEL_TYPES = ['SvcLDA', 'SvcQDA', 'SvcProbit'] as const;
export type ModelType = (typeof MODEL_TYPES)[number];

export function isModelType(value: unknown): value is ModelType {
  return typeof value === 'string' && (MODEL_TYPES as readonly string[]).includes(value);
}

/** Bounds on what an operator may describe (CONTRACT 7 and 12). */
export const MODEL_LIMITS = Object.freeze({
  nameLength: 100,
  versionLength: 40,
  paradigmLength: 64,
  maxCount: 1_000_000,
  downloadUrlLength: 2048,
  descriptionLength: 2000,
  shortTextLength: 200,
  metadataBytes: 16 * 1024,
  ownerUserIdLength: 40,
});

/** Lowercase letters, digits, `_`, `.`, `-`; at most 100 characters; `list` is a route, not a name. */
const NAME_FORM = /^[a-z0-9][a-z0-9_.-]{0,99}$/;
const RESERVED_NAMES: readonly string[] = ['list'];
/** Dotted digits: `1`, `1.0`, `2.10.3` (at most `MODEL_LIMITS.versionLength` characters). */
export const MODEL_VERSION_FORM = /^\d+(\.\d+)*$/;
/** An open list (`motor_imagery`, `p300`, `ssvep`, ...), but identifier-shaped: at most 64 characters. */
export const MODEL_PARADIGM_FORM = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const CHECKSUM_FORM = /^sha256:[0-9a-f]{64}$/;

/** The rule a model's name follows: it is the model's identity, in paths and in records. */
export const MODEL_NAME_RULE =
  'name must be 1-100 lowercase letters, digits, "_", "." or "-", starting with a letter or digit (and not "list")';

export function isModelName(value: unknown): value is string {
  return typeof value === 'string' && NAME_FORM.test(value) && !RESERVED_NAMES.includes(value);
}

/** An explicit download address: an http(s) URL with a host, at most `MODEL_LIMITS.downloadUrlLength` characters. */
export function isDownloadUrl(value: string): boolean {
  if (value.length > MODEL_LIMITS.downloadUrlLength || !/^https?:\/\/\S+$/i.test(value)) return false;
  try {
    return new URL(value).hostname !== '';
  } catch {
    return false;
  }
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

/**
 * What an operator sends about a model: a description whose `name` may be
 * left out when the path names the model (PUT /admin/v1/models/{name}).
 * Each field's own form is checked where the record is read (the admin API's
 * and the CLI's ModelRecordRequest); `modelDescriptionOf` adds the rules that
 * span fields.
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

/**
 * Published: a key can download it, from the store or from an explicit
 * address, and verify it: the record is complete (CONTRACT 7), with a
 * checksum and a size. Otherwise it is not listed (a row registered with an
 * external address but no checksum stays unlisted until completed).
 */
export function isPublished(model: Model): boolean {
  return (model.storedFile !== null || model.downloadUrl !== null) && model.checksum !== null && model.sizeBytes !== null;
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

/**
 * The record rules that span fields, the same for the admin API and the CLI.
 * The name is the model's identity: given, or taken from the path
 * (`pathName`), well formed, and equal to the path's (a model is not renamed).
 * A custom model (one with an owner) requires commercial or above. Throws
 * INVALID_REQUEST naming the field.
 */
export function modelDescriptionOf(input: ModelDescriptionInput, pathName?: string): ModelDescription {
  const name = input.name ?? pathName;
  if (name === undefined || !isModelName(name)) throw new InvalidRequestError(MODEL_NAME_RULE);
  if (pathName !== undefined && name !== pathName) {
    throw new InvalidRequestError('name must match the model in the path (a model cannot be renamed)');
  }
  if (input.ownerUserId !== null && rankOf(input.requiresLicense) < rankOf(CUSTOM_MODEL_TIER)) {
    throw new InvalidRequestError('requires_license must be commercial or enterprise for a custom model (one with owner_user_id)');
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

/**
 * What a POST or PUT body says about the model's file: the values GET shows
 * (`checksum`, `size_bytes`, `size_mb`). Absent or null says nothing.
 */
export interface ModelFileClaims {
  readonly checksum?: string | null;
  readonly sizeBytes?: number | null;
  readonly sizeMb?: number | null;
}

/**
 * Where a record's file is after a POST or PUT: the file the service holds
 * (kept as it is), an external file (the body's checksum and size), or none yet.
 */
export type RecordFile =
  | { readonly kind: 'stored' }
  | { readonly kind: 'external'; readonly checksum: string; readonly sizeBytes: number }
  | { readonly kind: 'none' };

/**
 * Whether `url` is the address of the service's own stored file `storedFile`
 * (what GET shows: `<base>/model-files/<file>` or `<MODEL_HOST>/<file>`, signed
 * or not): its last path segment is the stored name, whatever the query.
 * Stored names carry 96 random bits, so no other address ends with one.
 */
export function isStoredFileUrl(url: string, storedFile: string): boolean {
  let pathname: string;
  try {
    pathname = new URL(url, 'http://stored.invalid').pathname;
  } catch {
    return false;
  }
  const last = pathname.slice(pathname.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(last) === storedFile;
  } catch {
    return false;
  }
}

/**
 * The file rules of a record (CONTRACT 7), the same for the admin API and the
 * CLI. An explicit external `download_url` (a file the service does not hold)
 * requires `checksum` and `size_bytes`, which become the record's; `size_mb`,
 * if given, must be `size_bytes / 1,000,000`. A `download_url` naming the
 * record's own stored file keeps that file (the URL is not stored). For a
 * record whose file the service holds, the claims must equal the stored
 * file's; without any file they cannot be set. `existing`: the record a PUT
 * replaces (null for a new record). Throws INVALID_REQUEST naming the field.
 */
export function recordFileOf(
  description: ModelDescription,
  claims: ModelFileClaims,
  existing: Model | null,
): { readonly description: ModelDescription; readonly file: RecordFile } {
  const storedFile = existing?.storedFile ?? null;
  let downloadUrl = description.downloadUrl;
  if (downloadUrl !== null && storedFile !== null && isStoredFileUrl(downloadUrl, storedFile)) downloadUrl = null;
  const checksum = claims.checksum ?? null;
  const sizeBytes = claims.sizeBytes ?? null;
  const sizeMb = claims.sizeMb ?? null;
  if (downloadUrl !== null) {
    if (checksum === null) {
      throw new InvalidRequestError(
        'checksum is required with an external download_url: sha256:<64 hex> of the file (models publish FILE --download-url URL computes it)',
      );
    }
    if (sizeBytes === null) {
      throw new InvalidRequestError("size_bytes is required with an external download_url: the file's exact size in bytes");
    }
    if (sizeMb !== null && sizeMb !== sizeBytes / 1_000_000) {
      throw new InvalidRequestError('size_mb must equal size_bytes / 1000000 (it is derived from size_bytes)');
    }
    return { description: { ...description, downloadUrl }, file: { kind: 'external', checksum, sizeBytes } };
  }
  const kept = { ...description, downloadUrl: null };
  if (existing !== null && storedFile !== null) {
    if (checksum !== null && checksum !== existing.checksum) {
      throw new InvalidRequestError(
        `checksum must be the stored file's (${existing.checksum ?? 'none'}): it is computed from the uploaded file`,
      );
    }
    if (sizeBytes !== null && sizeBytes !== existing.sizeBytes) {
      throw new InvalidRequestError(
        `size_bytes must be the stored file's (${existing.sizeBytes ?? 'none'}): it is computed from the uploaded file`,
      );
    }
    if (sizeMb !== null && sizeMb !== sizeMbOf(existing)) {
      throw new InvalidRequestError(
        `size_mb must be the stored file's (${sizeMbOf(existing) ?? 'none'}): it is computed from the uploaded file`,
      );
    }
    return { description: kept, file: { kind: 'stored' } };
  }
  for (const [field, value] of [
    ['checksum', checksum],
    ['size_bytes', sizeBytes],
    ['size_mb', sizeMb],
  ] as const) {
    if (value !== null) {
      throw new InvalidRequestError(
        `${field} can be set only with an external download_url; otherwise it is computed from the uploaded model file`,
      );
    }
  }
  return { description: kept, file: { kind: 'none' } };
}

/** A record's `checksum` (CONTRACT 7) from the lowercase hex SHA-256 of the file's bytes. */
export function checksumOf(sha256Hex: string): string {
  return `sha256:${sha256Hex}`;
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
