import { type Model, isPublished, requiredTierOf, sizeMbOf } from '@svc/domain';
import { type StoredFileAddressing, downloadUrlOf } from './model-download';

/**
 * The JSON shapes of the model registry, shared by the HTTP API and the CLI's
 * `--json` output. `fileBase` is where stored files are downloaded from
 * (MODEL_HOST, or this service's `/model-files`): see `modelFileBaseOf`.
 */

/** SPEC 2.4, plus the exact `size_bytes` (CONTRACT 7). */
export interface ModelRecordView {
  readonly name: string;
  readonly version: string;
  readonly type: string;
  readonly paradigm: string;
  readonly n_features: number;
  readonly n_classes: number;
  readonly size_mb: number | null;
  readonly size_bytes: number | null;
  readonly download_url: string | null;
  readonly checksum: string | null;
  readonly requires_license: string;
  readonly metadata: Readonly<Record<string, unknown>>;
}

export function modelRecordViewOf(model: Model, fileBase: StoredFileAddressing): ModelRecordView {
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

/** The operators' view (admin API and CLI): the record, its owner, and where it stands. */
export interface AdminModelView extends ModelRecordView {
  readonly owner_user_id: string | null;
  /** Listed to keys: complete, a stored file or an explicit download address, with its checksum and size. */
  readonly published: boolean;
  /** The file's name in the model store, if one was uploaded. */
  readonly stored_file: string | null;
  readonly created_at: string;
  readonly updated_at: string;
}

export function adminModelViewOf(model: Model, fileBase: StoredFileAddressing): AdminModelView {
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
