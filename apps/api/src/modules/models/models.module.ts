import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig } from '@svc/config';
import { ApiKeyGuard } from '../../http/api-key.guard';
import { ModelFilesController } from './model-files.controller';
import { ModelsController } from './models.controller';
import { SampleModelsSeeder } from './sample-models.seeder';

/**
 * The model registry for keys (SPEC 4.6, CONTRACT 7). Without MODEL_HOST the
 * service also serves its own model store under `/model-files`.
 */
@Module({})
export class ModelsModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: ModelsModule,
      controllers: [ModelsController, ...(config.models.host === null ? [ModelFilesController] : [])],
      providers: [ApiKeyGuard, SampleModelsSeeder],
    };
  }
}
