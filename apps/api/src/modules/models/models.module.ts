import { DynamicModule, Module } from '@nestjs/common';
import { DownloadModel, GetModel, ListAllModels, ListModels, PublishModelFromFile, SweepModelStore } from '@svc/application';
import { AppConfig } from '@svc/config';
import { ApiKeyAuthModule } from '../../api-key-auth/api-key-auth.module';
import { ModelFileLinks } from './model-file-links';
import { ModelFilesController } from './model-files.controller';
import { ModelsController } from './models.controller';
import { ModelStoreSweeper } from './model-store.sweeper';
import { SampleModelsSeeder } from './sample-models.seeder';

/**
 * The model registry for keys (SPEC 4.6, CONTRACT 7). Without MODEL_HOST the
 * service also serves its own model store under `/model-files`. At start-up
 * the sample catalogue may be published, and files no record names are swept.
 */
@Module({})
export class ModelsModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: ModelsModule,
      imports: [ApiKeyAuthModule],
      controllers: [ModelsController, ...(config.models.host === null ? [ModelFilesController] : [])],
      providers: [
        ModelFileLinks,
        ListModels,
        GetModel,
        DownloadModel,
        ListAllModels,
        PublishModelFromFile,
        SampleModelsSeeder,
        SweepModelStore,
        ModelStoreSweeper,
      ],
    };
  }
}
