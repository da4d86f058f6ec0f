import { Injectable } from '@nestjs/common';
import { ApiKey, Model, ModelRepository, compareModels, matchesFilter, readModelFilter, visibilityOf } from '@svc/domain';

export interface ListModelsInput {
  /** The authenticated key (key errors were answered before this runs). */
  readonly key: ApiKey;
  /** The untrusted query values: a string each, or absent. */
  readonly paradigm?: unknown;
  readonly type?: unknown;
}

/**
 * GET /v1/models/list (SPEC 4.6, CONTRACT 7): the published models the key
 * may load, narrowed by the filters, by paradigm then name.
 */
@Injectable()
export class ListModels {
  constructor(private readonly models: ModelRepository) {}

  async execute(input: ListModelsInput): Promise<Model[]> {
    const filter = readModelFilter({ paradigm: input.paradigm, type: input.type });
    const viewer = { licenseType: input.key.licenseType, userId: input.key.userId };
    return (await this.models.list())
      .filter((model) => matchesFilter(model, filter) && visibilityOf(model, viewer) === 'visible')
      .sort(compareModels);
  }
}
