import { Injectable } from '@nestjs/common';
import {
  AuditLog,
  Clock,
  IdGenerator,
  Model,
  ModelDescriptionInput,
  ModelFileClaims,
  ModelNotFoundError,
  ModelRepository,
  ModelStore,
  type Actor,
  UserRepository,
  modelDescriptionOf,
  recordFileOf,
  isPublished,
  modelPublishedEvent,
} from '@svc/domain';
import { auditModelChange } from './model-audit';
import { checkModelOwner } from './model-owner';

export interface ReplaceModelInput {
  readonly name: string;
  /** The full record, as read and checked at the edge; `name` may be left out and must otherwise match. */
  readonly description: ModelDescriptionInput;
  /** `checksum`, `size_bytes`, `size_mb` as the body gave them (see `recordFileOf`). */
  readonly claims?: ModelFileClaims;
  /** Who asked: the admin API or the CLI (audited). */
  readonly actor: Actor;
}

/**
 * PUT /admin/v1/models/{name} (CONTRACT 12): replaces everything the operator
 * describes. The uploaded file, its checksum and size stay unless a new file
 * is uploaded, or the record now names an external file (its checksum and
 * size are then the body's, and the stored file is removed); `download_url`
 * left out, or naming the stored file, means the stored file is served. So a
 * record read by GET, edited and PUT back is accepted.
 */
@Injectable()
export class ReplaceModel {
  constructor(
    private readonly models: ModelRepository,
    private readonly users: UserRepository,
    private readonly store: ModelStore,
    private readonly audit: AuditLog,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(input: ReplaceModelInput): Promise<Model> {
    const existing = await this.models.findByName(input.name);
    if (!existing) throw new ModelNotFoundError();
    const { description, file } = recordFileOf(modelDescriptionOf(input.description, input.name), input.claims ?? {}, existing);
    await checkModelOwner(this.users, description);
    const at = this.clock.now();
    const replaced = { ...existing, ...description, updatedAt: at };
    const written =
      file.kind === 'stored'
        ? await this.models.updateDescription(replaced)
        : await this.replaceUnstored(existing, {
            ...replaced,
            storedFile: null,
            checksum: file.kind === 'external' ? file.checksum : null,
            sizeBytes: file.kind === 'external' ? file.sizeBytes : null,
          });
    if (!written) throw new ModelNotFoundError();
    // the record no longer names its stored file (it names an external one, or none)
    if (file.kind !== 'stored' && existing.storedFile !== null) await this.store.remove(existing.storedFile);
    const updated = await this.models.findByName(input.name);
    if (!updated) throw new ModelNotFoundError();
    await auditModelChange({ audit: this.audit, ids: this.ids }, 'model.replaced', updated, input.actor, at);
    return updated;
  }

  /** An external (or no) file: `model.published` when the record now names a complete file it did not name before. */
  private replaceUnstored(existing: Model, replaced: Model): Promise<boolean> {
    const newlyPublished =
      isPublished(replaced) && (!isPublished(existing) || existing.checksum !== replaced.checksum || existing.version !== replaced.version);
    return this.models.updateUnstored(
      replaced,
      newlyPublished ? [modelPublishedEvent(this.ids.newId('wev'), replaced, replaced.updatedAt)] : [],
    );
  }
}
