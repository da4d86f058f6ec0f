import { type Repository } from 'typeorm';
import { type ApiKeyRecord } from '../typeorm/records/api-key.record';
import { ROTATE_PREDECESSOR, type RotationRows, TypeOrmApiKeyRepository } from '../typeorm/repositories/typeorm-api-key.repository';
import { type PreparedStatement } from '../typeorm/sql-statements';
import { type PostgresStatements } from './postgres-statements';

/**
 * Keys on PostgreSQL: a rotation is one statement whose CTE makes the
 * conditional update and feeds the successor's insert, so the successor is
 * stored only by the one statement that changed the row (a racing statement
 * waits on the row lock, then finds it rotated and inserts nothing).
 */
export class PostgresApiKeyRepository extends TypeOrmApiKeyRepository {
  private statement?: PreparedStatement<{ id: string }>;

  constructor(
    records: Repository<ApiKeyRecord>,
    private readonly postgres: PostgresStatements,
  ) {
    super(records, postgres);
  }

  protected async rotateAtomically(rows: RotationRows): Promise<boolean> {
    this.statement ??= this.postgres.prepare(
      'api_key_rotate',
      `WITH marked AS (${ROTATE_PREDECESSOR} RETURNING id)
       INSERT INTO api_keys (${this.keyValues.columnNames().join(', ')})
       SELECT ${this.keyValues
         .columnNames()
         .map(() => '?')
         .join(', ')} FROM marked RETURNING id`,
    );
    return (await this.statement.first([...rows.predecessor, ...rows.successor])) !== undefined;
  }
}
