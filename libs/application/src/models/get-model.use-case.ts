import { Injectable } from '@nestjs/common';
import { ApiKey, InsufficientLicenseError, Model, ModelNotFoundError, ModelRepository, requiredTierOf, visibilityOf } from '@svc/domain';

/**
 * GET /v1/models/{name} and its download (CONTRACT 7): unknown, unpublished or
 * another owner's model is MODEL_NOT_FOUND; above the key's tier is
 * INSUFFICIENT_LICENSE naming the tier it needs.
 */
@Injectable()
export class GetModel {
  constructor(private readonly models: ModelRepository) {}

  async execute(input: { readonly key: ApiKey; readonly name: string }): Promise<Model> {
    const model = await this.models.findByName(input.name);
    if (!model) throw new ModelNotFoundError();
    const verdict = visibilityOf(model, { licenseType: input.key.licenseType, userId: input.key.userId });
    if (verdict === 'not-found') throw new ModelNotFoundError();
    if (verdict === 'insufficient') throw new InsufficientLicenseError(requiredTierOf(model));
    return model;
  }
}
