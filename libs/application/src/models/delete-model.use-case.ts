import { Injectable } from '@nestjs/common';
import { ModelNotFoundError, ModelRepository, ModelStore } from '@svc/domain';

/** DELETE /admin/v1/models/{name} (CONTRACT 12): the record, then its stored file. */
@Injectable()
export class DeleteModel {
  constructor(
    private readonly models: ModelRepository,
    private readonly store: ModelStore,
  ) {}

  async execute(input: { readonly name: string }): Promise<void> {
    const deleted = await this.models.delete(input.name);
    if (!deleted) throw new ModelNotFoundError();
    if (deleted.storedFile !== null) await this.store.remove(deleted.storedFile);
  }
}
