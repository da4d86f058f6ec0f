import { Injectable } from '@nestjs/common';
import {
  Clock,
  Model,
  ModelDescriptionInput,
  ModelNotFoundError,
  ModelRepository,
  UserRepository,
  modelDescriptionOf,
} from '@svc/domain';
import { checkModelOwner } from './model-owner';

export interface ReplaceModelInput {
  readonly name: string;
  /** The full record, as read and checked at the edge; `name` may be left out and must otherwise match. */
  readonly description: ModelDescriptionInput;
}

/**
 * PUT /admin/v1/models/{name} (CONTRACT 12): replaces everything the operator
 * describes. The uploaded file, its checksum and size stay unless a new file
 * is uploaded; `download_url` left out means none (the stored file is served).
 */
@Injectable()
export class ReplaceModel {
  constructor(
    private readonly models: ModelRepository,
    private readonly users: UserRepository,
    private readonly clock: Clock,
  ) {}

  async execute(input: ReplaceModelInput): Promise<Model> {
    const existing = await this.models.findByName(input.name);
    if (!existing) throw new ModelNotFoundError();
    const description = modelDescriptionOf(input.description, input.name);
    await checkModelOwner(this.users, description);
    if (!(await this.models.updateDescription({ ...existing, ...description, updatedAt: this.clock.now() }))) {
      throw new ModelNotFoundError();
    }
    const updated = await this.models.findByName(input.name);
    if (!updated) throw new ModelNotFoundError();
    return updated;
  }
}
