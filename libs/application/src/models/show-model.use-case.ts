import { Injectable } from '@nestjs/common';
import { Model, ModelNotFoundError, ModelRepository } from '@svc/domain';

/** Operators: one record, whatever its state. */
@Injectable()
export class ShowModel {
  constructor(private readonly models: ModelRepository) {}

  async execute(input: { readonly name: string }): Promise<Model> {
    const model = await this.models.findByName(input.name);
    if (!model) throw new ModelNotFoundError();
    return model;
  }
}
