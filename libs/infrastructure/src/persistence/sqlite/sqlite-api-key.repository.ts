import type { Transaction } from 'better-sqlite3';
import { type Repository } from 'typeorm';
import { type ApiKeyRecord } from '../typeorm/records/api-key.record';
import { ROTATE_PREDECESSOR, type RotationRows, TypeOrmApiKeyRepository } from '../typeorm/repositories/typeorm-api-key.repository';
import { type SqliteStatements } from './sqlite-statements';

type Rotate = (rows: RotationRows) => boolean;

/**
 * Keys on SQLite: a rotation is one synchronous better-sqlite3 transaction
 * (BEGIN IMMEDIATE, as the analytics events: the write lock first, so another
 * process on the file waits rather than failing): the conditional update,
 * then the successor's insert only when it changed the row.
 */
export class SqliteApiKeyRepository extends TypeOrmApiKeyRepository {
  private transaction?: Transaction<Rotate>;

  constructor(
    records: Repository<ApiKeyRecord>,
    private readonly sqlite: SqliteStatements,
  ) {
    super(records, sqlite);
  }

  protected async rotateAtomically(rows: RotationRows): Promise<boolean> {
    this.transaction ??= this.prepareTransaction();
    return this.transaction.immediate(rows);
  }

  private prepareTransaction(): Transaction<Rotate> {
    const db = this.sqlite.database;
    const mark = db.prepare(ROTATE_PREDECESSOR);
    const insert = db.prepare(this.keyValues.insertSql());
    return db.transaction((rows: RotationRows): boolean => {
      if (mark.run(...rows.predecessor).changes !== 1) return false;
      insert.run(...rows.successor);
      return true;
    });
  }
}
