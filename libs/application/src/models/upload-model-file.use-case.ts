import { Injectable } from '@nestjs/common';
import {
  AuditLog,
  Clock,
  IdGenerator,
  InvalidRequestError,
  Model,
  ModelNotFoundError,
  ModelRepository,
  ModelStore,
  type Actor,
  StoredModelFile,
  checksumOf,
  modelPublishedEvent,
} from '@svc/domain';
import { auditModelChange } from './model-audit';

export interface UploadModelFileInput {
  readonly name: string;
  /** The file's bytes, streamed (never held in memory whole) or given at once. */
  readonly file: AsyncIterable<Uint8Array | string> | Uint8Array;
  /** Who asked: the admin API or the CLI (audited). */
  readonly actor: Actor;
}

/**
 * PUT /admin/v1/models/{name}/file (CONTRACT 12): stores the bytes, computes
 * `checksum` and size from them, and points the record at the new file, which
 * is then what is served (an explicit external `download_url` is dropped); an
 * older file is removed. Concurrent uploads cannot both win: the record's
 * file is swapped in one conditional step, and the loser's file is removed.
 */
@Injectable()
export class UploadModelFile {
  /**
   * A swap fails only because another upload's swap succeeded in between, so
   * every retry follows progress; the bound only guards against a pathological
   * stream of uploads to one model (each retry re-reads the record).
   */
  private static readonly SWAP_ATTEMPTS = 100;

  constructor(
    private readonly models: ModelRepository,
    private readonly store: ModelStore,
    private readonly audit: AuditLog,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(input: UploadModelFileInput): Promise<Model> {
    let model = await this.models.findByName(input.name);
    if (!model) throw new ModelNotFoundError();
    const stored = await storeModelFile(this.store, model, input.file);
    for (let attempt = 0; attempt < UploadModelFile.SWAP_ATTEMPTS; attempt += 1) {
      const file = { storedFile: stored.path, checksum: checksumOf(stored.sha256), sizeBytes: stored.sizeBytes };
      const at = this.clock.now();
      const published = modelPublishedEvent(this.ids.newId('wev'), { ...model, ...file }, at);
      if (await this.models.replaceFile(model.name, model.storedFile, file, at, [published])) {
        if (model.storedFile !== null) await this.store.remove(model.storedFile);
        let updated = await this.models.findByName(model.name);
        if (!updated) throw new ModelNotFoundError();
        if (updated.downloadUrl !== null) {
          // The uploaded file is served now (CONTRACT 12): an external address would name another file than the checksum's.
          await this.models.updateDescription({ ...updated, downloadUrl: null, updatedAt: at });
          updated = await this.models.findByName(model.name);
          if (!updated) throw new ModelNotFoundError();
        }
        await auditModelChange({ audit: this.audit, ids: this.ids }, 'model.uploaded', updated, input.actor, at);
        return updated;
      }
      model = await this.models.findByName(input.name);
      if (!model) {
        await this.store.remove(stored.path);
        throw new ModelNotFoundError();
      }
    }
    await this.store.remove(stored.path);
    throw new Error(`model ${input.name}: the file kept changing during the upload`);
  }
}

/** Writes a model's file to the store; an empty file is refused (and not kept). */
export async function storeModelFile(
  store: ModelStore,
  model: { readonly name: string; readonly version: string },
  source: AsyncIterable<Uint8Array | string> | Uint8Array,
): Promise<StoredModelFile> {
  const stored = await store.put(`${model.name}-${model.version}`, source);
  if (stored.sizeBytes === 0) {
    await store.remove(stored.path);
    throw new InvalidRequestError('the model file is empty');
  }
  return stored;
}
