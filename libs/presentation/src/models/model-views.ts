import { type Model, isPublished, requiredTierOf, sizeMbOf } from '@svc/domain';
import { type StoredFileAddressing, downloadUrlOf } from './model-download';
import type { AdminModelResponse, ModelRecordResponse } from './model-record.response';

/**
 * The JSON shapes of the model registry, shared by the HTTP API and the CLI's
 * `--json` output. `fileBase` is where stored files are downloaded from
 * (MODEL_HOST, or this service's `/model-files`): see `modelFileBaseOf`.
 */

export function modelRecordViewOf(model: Model, fileBase: StoredFileAddressing): ModelRecordResponse {
  return {
    name: model.name,
    version: model.version,
    type: model.type,
    paradigm: model.paradigm,
    n_features: model.nFeatures,
    n_classes: model.nClasses,
    size_mb: sizeMbOf(model),
    size_bytes: model.sizeBytes,
    download_url: downloadUrlOf(model, fileBase),
    checksum: model.checksum,
    requires_license: requiredTierOf(model),
    metadata: model.metadata,
  };
}

export function adminModelViewOf(model: Model, fileBase: StoredFileAddressing): AdminModelResponse {
  return {
    ...modelRecordViewOf(model, fileBase),
    requires_license: model.requiresLicense,
    owner_user_id: model.ownerUserId,
    published: isPublished(model),
    stored_file: model.storedFile,
    created_at: model.createdAt.toISOString(),
    updated_at: model.updatedAt.toISOString(),
  };
}
