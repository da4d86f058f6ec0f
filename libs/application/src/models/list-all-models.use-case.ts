import { Injectable } from '@nestjs/common';
import { Model, ModelRepository, compareModels } from '@svc/domain';

/** Operators: every record, published or not, custom ones included, by paradigm then name. */
@Injectable()
export class ListAllModels {
  constructor(private readonly models: ModelRepository) {}

  async execute(): Promise<Model[]> {
    return (await this.models.list()).sort(compareModels);
  }
}
