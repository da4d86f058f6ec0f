import { Model } from '@svc/domain';

/*
 * Download addresses (SPEC 2.4 `download_url`, CONTRACT 7): where a client
 * fetches a model's file. An address of the delivery side, not a rule of the
 * domain: the domain only says whether a model is published.
 */

/** Where the service's own model store is served when MODEL_HOST is unset (CONTRACT 7). */
export const MODEL_FILES_PATH = '/model-files';

/**
 * The base address of stored model files: MODEL_HOST when set, else this
 * service's own `/model-files` under `serviceOrigin` (empty: a relative address).
 */
export function modelFileBaseOf(modelHost: string | null, serviceOrigin: string): string {
  return modelHost ?? `${serviceOrigin}${MODEL_FILES_PATH}`;
}

/**
 * SPEC 2.4 `download_url`: the operator's explicit address if given, else the
 * stored file under the file base, else none (an unpublished model).
 */
export function downloadUrlOf(model: Model, fileBase: string): string | null {
  if (model.downloadUrl !== null) return model.downloadUrl;
  if (model.storedFile !== null) return `${fileBase}/${encodeURIComponent(model.storedFile)}`;
  return null;
}
