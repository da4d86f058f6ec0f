import { ReturningDeleteModelRepository } from '../typeorm/repositories/sql-model.repository';

/** unique_violation. */
const UNIQUE_VIOLATION = '23505';

/** The registry on PostgreSQL: a taken name is SQLSTATE 23505. */
export class PostgresModelRepository extends ReturningDeleteModelRepository {
  protected isUniqueViolation(driverError: { code?: unknown }): boolean {
    return driverError.code === UNIQUE_VIOLATION;
  }
}
