import { Injectable } from '@nestjs/common';
import {
  AuditLog,
  Clock,
  IdGenerator,
  InvalidRequestError,
  Model,
  ModelDescriptionInput,
  ModelExistsError,
  ModelRepository,
  ModelStore,
  type Actor,
  UserRepository,
  modelDescriptionOf,
  newModel,
  checksumOf,
  modelPublishedEvent,
} from '@svc/domain';
import { auditModelChange } from './model-audit';
import { checkModelOwner } from './model-owner';
import { storeModelFile } from './upload-model-file.use-case';

export interface PublishModelFromFileInput {
  /** The record, as read and checked at the edge (as for CreateModel); `name` is required. */
  readonly description: ModelDescriptionInput;
  /** The file's bytes, streamed or given at once. */
  readonly file: AsyncIterable<Uint8Array | string> | Uint8Array;
  /** Who asked: the CLI, or the API's sample catalogue at start-up (audited). */
  readonly actor: Actor;
}

/**
 * The CLI's `models publish` and the sample catalogue: record and file in one.
 * The file is copied into the model store and `checksum` and size are
 * computed from its bytes; the record exists only once its file does.
 */
@Injectable()
export class PublishModelFromFile {
  constructor(
    private readonly models: ModelRepository,
    private readonly users: UserRepository,
    private readonly store: ModelStore,
    private readonly audit: AuditLog,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(input: PublishModelFromFileInput): Promise<Model> {
    const description = modelDescriptionOf(input.description);
    if (description.downloadUrl !== null) {
      // the file is copied into the store and served from there; an external address is registered with CreateModel
      throw new InvalidRequestError('download_url cannot be set when the file is copied into the model store');
    }
    await checkModelOwner(this.users, description);
    if (await this.models.findByName(description.name)) throw new ModelExistsError(description.name);
    const stored = await storeModelFile(this.store, description, input.file);
    const file = { storedFile: stored.path, checksum: checksumOf(stored.sha256), sizeBytes: stored.sizeBytes };
    const model = newModel(description, file, this.clock.now());
    if (!(await this.models.insert(model, [modelPublishedEvent(this.ids.newId('wev'), model, model.createdAt)]))) {
      await this.store.remove(stored.path);
      throw new ModelExistsError(model.name);
    }
    await auditModelChange({ audit: this.audit, ids: this.ids }, 'model.created', model, input.actor, model.createdAt);
    return model;
  }
}
