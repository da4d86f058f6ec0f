import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ListAllModels, PublishModelFromFile } from '@svc/application';
import { AppConfig } from '@svc/config';
import { DomainError, SYSTEM_ACTOR } from '@svc/domain';
import { ModelRecordRequest, modelDescriptionInputOf, validatedRequest } from '@svc/presentation';
import { createReadStream } from 'node:fs';
import { readSampleCatalog } from './sample-model-catalog';

/**
 * SAMPLE_MODELS (default on for SQLite): when the registry is empty at
 * start-up, the sample catalogue (`config/models.json`) is read with the same
 * rules (ModelRecordRequest) and published through the same use case as the
 * CLI's `models publish`, so checksums and sizes are computed from the
 * shipped files and a fresh service serves downloads that verify. A registry
 * with any record is left alone.
 */
@Injectable()
export class SampleModelsSeeder implements OnApplicationBootstrap {
  private readonly logger = new Logger('SampleModels');

  constructor(
    private readonly config: AppConfig,
    private readonly listAll: ListAllModels,
    private readonly publish: PublishModelFromFile,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.models.seedSamples) return;
    if ((await this.listAll.execute()).length > 0) return;
    const samples = readSampleCatalog(this.config.models.samplesFile);
    for (const sample of samples) {
      try {
        const record = await validatedRequest(ModelRecordRequest, sample.record);
        await this.publish.execute({
          description: modelDescriptionInputOf(record),
          file: createReadStream(sample.file),
          actor: SYSTEM_ACTOR,
        });
      } catch (error) {
        // Another instance starting beside this one may have published it first.
        if (error instanceof DomainError && error.code === 'MODEL_EXISTS') continue;
        throw error;
      }
    }
    this.logger.log(`Published ${samples.length} sample models (SAMPLE_MODELS is on; the registry was empty)`);
  }
}
