import { MODEL_FILES_PATH, type Model } from '@svc/domain';

/*
 * Download addresses (SPEC 2.4 `download_url`, CONTRACT 7): where a client
 * fetches a model's file. An address of the delivery side, not a rule of the
 * domain: the domain only says whether a model is published.
 */

/**
 * The base address of stored model files: MODEL_HOST when set, else this
 * service's own `/model-files` under `serviceOrigin` (empty: a relative address).
 */
export function modelFileBaseOf(modelHost: string | null, serviceOrigin: string): string {
  return modelHost ?? `${serviceOrigin}${MODEL_FILES_PATH}`;
}

/**
 * Where a stored file is downloaded from: a base its name is appended to
 * (MODEL_HOST, or an unsigned address for operators), or a function of the
 * stored name (the signed, expiring links handed to keys: `ModelFileLinks`).
 */
export type StoredFileAddressing = string | ((storedFile: string) => string);

/**
 * SPEC 2.4 `download_url`: the operator's explicit address if given, else the
 * stored file's address, else none (an unpublished model).
 */
export function downloadUrlOf(model: Model, fileBase: StoredFileAddressing): string | null {
  if (model.downloadUrl !== null) return model.downloadUrl;
  if (model.storedFile === null) return null;
  return typeof fileBase === 'string' ? `${fileBase}/${encodeURIComponent(model.storedFile)}` : fileBase(model.storedFile);
}
