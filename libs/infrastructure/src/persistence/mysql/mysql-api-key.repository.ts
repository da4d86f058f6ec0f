import { type Repository } from 'typeorm';
import { type ApiKeyRecord } from '../typeorm/records/api-key.record';
import { ROTATE_PREDECESSOR, type RotationRows, TypeOrmApiKeyRepository } from '../typeorm/repositories/typeorm-api-key.repository';
import { mysqlInstant } from './mysql-analytics-event.repository';
import { type MySqlStatements } from './mysql-statements';

/** Instants as DATETIME(3) text in UTC, exact whatever the driver's date handling. */
const bound = (values: unknown[]): unknown[] => values.map((v) => (v instanceof Date ? mysqlInstant(v) : v));

/**
 * Keys on MySQL / MariaDB: a rotation is one transaction on one pooled
 * connection: the conditional update (its row lock makes a racing rotation
 * wait, then find the row rotated), and the successor's insert only when it
 * changed the row; otherwise rolled back, nothing stored.
 */
export class MySqlApiKeyRepository extends TypeOrmApiKeyRepository {
  constructor(
    records: Repository<ApiKeyRecord>,
    private readonly mysql: MySqlStatements,
  ) {
    super(records, mysql);
  }

  protected rotateAtomically(rows: RotationRows): Promise<boolean> {
    return this.mysql.transaction(async (session) => {
      const marked = await session.write(ROTATE_PREDECESSOR, bound(rows.predecessor));
      if (marked.affectedRows !== 1) return { value: false, rollback: true };
      await session.write(this.keyValues.insertSql(), bound(rows.successor));
      return { value: true };
    });
  }
}
