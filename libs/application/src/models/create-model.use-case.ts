import { Injectable } from '@nestjs/common';
import {
  AuditLog,
  Clock,
  IdGenerator,
  Model,
  ModelDescriptionInput,
  ModelExistsError,
  ModelFileClaims,
  ModelRepository,
  type Actor,
  UserRepository,
  isPublished,
  modelDescriptionOf,
  modelPublishedEvent,
  recordFileOf,
} from '@svc/domain';
import { auditModelChange } from './model-audit';
import { checkModelOwner } from './model-owner';

export interface CreateModelInput {
  /** The record as read and checked at the edge (SPEC 2.4 fields and the owner); `name` is required. */
  readonly description: ModelDescriptionInput;
  /** `checksum`, `size_bytes`, `size_mb` as the body gave them: required with an external `download_url`. */
  readonly claims?: ModelFileClaims;
  /** Who asked: the admin API or the CLI (audited). */
  readonly actor: Actor;
}

/**
 * POST /admin/v1/models (CONTRACT 12) and the CLI's `models publish FILE
 * --download-url URL`: registers a record. With an explicit external
 * `download_url` it carries that file's checksum and size and is published;
 * otherwise it is not yet published (not listed to keys) until a file is uploaded.
 */
@Injectable()
export class CreateModel {
  constructor(
    private readonly models: ModelRepository,
    private readonly users: UserRepository,
    private readonly audit: AuditLog,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(input: CreateModelInput): Promise<Model> {
    const { description, file } = recordFileOf(modelDescriptionOf(input.description), input.claims ?? {}, null);
    await checkModelOwner(this.users, description);
    const at = this.clock.now();
    const model: Model = {
      ...description,
      storedFile: null,
      checksum: file.kind === 'external' ? file.checksum : null,
      sizeBytes: file.kind === 'external' ? file.sizeBytes : null,
      createdAt: at,
      updatedAt: at,
    };
    const events = isPublished(model) ? [modelPublishedEvent(this.ids.newId('wev'), model, at)] : [];
    if (!(await this.models.insert(model, events))) throw new ModelExistsError(model.name);
    await auditModelChange({ audit: this.audit, ids: this.ids }, 'model.created', model, input.actor, at);
    return model;
  }
}
