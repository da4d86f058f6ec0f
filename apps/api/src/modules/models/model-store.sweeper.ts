import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { SweepModelStore } from '@svc/application';

/**
 * At start-up, removes the files of the model store that no record names
 * (CONTRACT 7; the CLI's `models sweep` does the same), and aborts uploads
 * left unfinished for over a day (CONTRACT 19). A failure is logged,
 * never fatal: an orphan file costs disk space, not correctness.
 */
@Injectable()
export class ModelStoreSweeper implements OnApplicationBootstrap {
  private readonly logger = new Logger('ModelStore');

  constructor(private readonly sweep: SweepModelStore) {}

  async onApplicationBootstrap(): Promise<void> {
    try {
      const result = await this.sweep.execute();
      if (result.removed.length > 0) {
        this.logger.log(`Removed ${result.removed.length} files no model names: ${result.removed.join(', ')}`);
      }
      if (result.abortedUploads.length > 0) {
        this.logger.log(`Aborted ${result.abortedUploads.length} uploads unfinished for over a day: ${result.abortedUploads.join(', ')}`);
      }
    } catch (error) {
      this.logger.warn(`The model store sweep failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
