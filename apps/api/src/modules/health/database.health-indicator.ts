import { Injectable } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { DatabasePing } from '@svc/application';

/** The key the database check is reported under (readiness `info`/`error`/`details`). */
export const DATABASE_CHECK = 'database';

/** What a down database check says (terminus `message`, and the `error` of the SPEC 4.7 body). */
export const DATABASE_UNREACHABLE = 'Database is not reachable';

/**
 * Terminus health indicator over `DatabasePing` (one prepared `SELECT 1`
 * with a time limit). Deliberately not terminus's TypeOrmHealthIndicator:
 * that one resolves the data source and builds a query runner on every call.
 */
@Injectable()
export class DatabaseHealthIndicator {
  constructor(
    private readonly ping: DatabasePing,
    private readonly healthIndicatorService: HealthIndicatorService,
  ) {}

  /** `database: {status: 'up'}`, or `down` with a message when it does not answer in time. */
  async isHealthy(): Promise<HealthIndicatorResult<typeof DATABASE_CHECK>> {
    const indicator = this.healthIndicatorService.check(DATABASE_CHECK);
    return (await this.ping.answers()) ? indicator.up() : indicator.down({ message: DATABASE_UNREACHABLE });
  }
}
