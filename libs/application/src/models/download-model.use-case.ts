import { Injectable } from '@nestjs/common';
import { ApiKey, Model, ModelStore, ModelStoreUnavailableError } from '@svc/domain';
import { GetModel } from './get-model.use-case';

/**
 * GET /v1/models/{name}/download (CONTRACT 7, 19): the record's rules
 * (GetModel), then, for a file the model store holds, the store must answer:
 * a link to a store that is down would fail at the client, so the answer is
 * ModelStoreUnavailableError (503 with Retry-After) instead.
 */
@Injectable()
export class DownloadModel {
  constructor(
    private readonly getModel: GetModel,
    private readonly store: ModelStore,
  ) {}

  async execute(input: { readonly key: ApiKey; readonly name: string }): Promise<Model> {
    const model = await this.getModel.execute(input);
    const servedFromStore = model.downloadUrl === null && model.storedFile !== null;
    if (servedFromStore && !(await this.store.answers())) throw new ModelStoreUnavailableError();
    return model;
  }
}
