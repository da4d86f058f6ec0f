import { Injectable } from '@nestjs/common';
import {
  Clock,
  Model,
  ModelDescriptionInput,
  ModelExistsError,
  ModelRepository,
  UserRepository,
  modelDescriptionOf,
  newModel,
} from '@svc/domain';
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

  /** `description`: the record as read and checked at the edge (SPEC 2.4 fields and the owner); `name` is required. */
  async execute(input: { readonly description: ModelDescriptionInput }): Promise<Model> {
    const description = modelDescriptionOf(input.description);
    await checkModelOwner(this.users, description);
    const model = newModel(description, null, this.clock.now());
    if (!(await this.models.insert(model))) throw new ModelExistsError(model.name);
    return model;
  }
}
