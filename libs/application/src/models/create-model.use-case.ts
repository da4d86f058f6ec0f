import { Injectable } from '@nestjs/common';
import { Clock, Model, ModelExistsError, ModelRepository, UserRepository, newModel, readModelDescription } from '@svc/domain';
import { checkModelOwner } from './model-owner';

/**
 * POST /admin/v1/models (CONTRACT 12): registers a record. Without a file or
 * an explicit `download_url` it is not yet published (not listed to keys).
 */
@Injectable()
export class CreateModel {
  constructor(
    private readonly models: ModelRepository,
    private readonly users: UserRepository,
    private readonly clock: Clock,
  ) {}

  /** `record`: the untrusted record, SPEC 2.4 fields in snake case plus `owner_user_id`. */
  async execute(input: { readonly record: Readonly<Record<string, unknown>> }): Promise<Model> {
    const description = readModelDescription(input.record);
    await checkModelOwner(this.users, description);
    const model = newModel(description, null, this.clock.now());
    if (!(await this.models.insert(model))) throw new ModelExistsError(model.name);
    return model;
  }
}
