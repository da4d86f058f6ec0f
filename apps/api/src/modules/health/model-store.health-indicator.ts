import { Injectable } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { ModelStore } from '@svc/domain';

/** The key the model store check is reported under (readiness `info`/`error`/`details`). */
export const MODEL_STORE_CHECK = 'model_store';

/** What a down model store check says. */
export const MODEL_STORE_UNREACHABLE = 'Model store is not reachable';

/**
 * Terminus health indicator over `ModelStore.answers` (CONTRACT 19): the
 * object store's bucket answers within 1.5 s, or the local store's folder can
 * be written. Down fails readiness: downloads and uploads cannot be served.
 */
@Injectable()
export class ModelStoreHealthIndicator {
  constructor(
    private readonly store: ModelStore,
    private readonly healthIndicatorService: HealthIndicatorService,
  ) {}

  async isHealthy(): Promise<HealthIndicatorResult<typeof MODEL_STORE_CHECK>> {
    const indicator = this.healthIndicatorService.check(MODEL_STORE_CHECK);
    return (await this.store.answers()) ? indicator.up() : indicator.down({ message: MODEL_STORE_UNREACHABLE });
  }
}
