import { Module } from '@nestjs/common';
import { AdminAuthModule } from '../../../admin-auth/admin-auth.module';
import { CreateModel, DeleteModel, ListAllModels, ReplaceModel, ShowModel, UploadModelFile } from '@svc/application';
import { AdminModelsController } from './admin-models.controller';

/** The operators' model registry calls (CONTRACT 12): register, upload, replace, list, show, delete. */
@Module({
  imports: [AdminAuthModule],
  controllers: [AdminModelsController],
  providers: [CreateModel, UploadModelFile, ReplaceModel, DeleteModel, ListAllModels, ShowModel],
})
export class AdminModelsModule {}
