import { type LicenseType, meetsTier, rankOf } from '../license/license-type';
import { MODEL_TYPES, type ModelType, isModelType } from './model-forms';
import { CUSTOM_MODEL_TIER, type Model } from './model';
import { InvalidParameterError } from './model.errors';

/**
 * Published: a key can download it, from the store or from an explicit
 * address, and verify it: the record is complete (CONTRACT 7), with a
 * checksum and a size. Otherwise it is not listed (a row registered with an
 * external address but no checksum stays unlisted until completed).
 */
export function isPublished(model: Model): boolean {
  return (model.storedFile !== null || model.downloadUrl !== null) && model.checksum !== null && model.sizeBytes !== null;
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
 * Reads the list's filters. A value given twice (an array) or not a
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
