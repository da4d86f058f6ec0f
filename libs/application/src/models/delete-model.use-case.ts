import { Injectable } from '@nestjs/common';
import { type Actor, AuditLog, Clock, IdGenerator, ModelNotFoundError, ModelRepository, ModelStore, modelDeletedEvent } from '@svc/domain';
import { auditModelChange } from './model-audit';

/** DELETE /admin/v1/models/{name} (CONTRACT 12): the record, then its stored file. */
@Injectable()
export class DeleteModel {
  constructor(
    private readonly models: ModelRepository,
    private readonly store: ModelStore,
    private readonly audit: AuditLog,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(input: { readonly name: string; readonly actor: Actor }): Promise<void> {
    const at = this.clock.now();
    const deleted = await this.models.delete(input.name, (model) => [modelDeletedEvent(this.ids.newId('wev'), model, at)]);
    if (!deleted) throw new ModelNotFoundError();
    if (deleted.storedFile !== null) await this.store.remove(deleted.storedFile);
    await auditModelChange({ audit: this.audit, ids: this.ids }, 'model.deleted', deleted, input.actor, at);
  }
}
