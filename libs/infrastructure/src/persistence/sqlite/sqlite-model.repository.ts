import { ReturningDeleteModelRepository } from '../typeorm/repositories/sql-model.repository';

/** The registry on SQLite: a taken name is a primary-key (or unique) constraint failure. */
export class SqliteModelRepository extends ReturningDeleteModelRepository {
  protected isUniqueViolation(driverError: { code?: unknown }): boolean {
    return driverError.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || driverError.code === 'SQLITE_CONSTRAINT_UNIQUE';
  }
}
