import { type Model, type WebhookEvent } from '@svc/domain';
import { type Repository } from 'typeorm';
import { type OutboxBell } from '../typeorm/outbox';
import { type ModelRecord } from '../typeorm/records/model.record';
import { SqlModelRepository } from '../typeorm/repositories/sql-model.repository';
import { type MySqlStatements, mysqlInstant } from './mysql-statements';

/** ER_DUP_ENTRY. */
const DUPLICATE_ENTRY = 1062;

/**
 * The registry on MySQL / MariaDB. MySQL 8 has no `DELETE … RETURNING`: the
 * record is read with a row lock and deleted in one transaction, so the file
 * removed is the one the deleted row named and no upload can slip between.
 */
export class MySqlModelRepository extends SqlModelRepository {
  constructor(
    records: Repository<ModelRecord>,
    private readonly mysql: MySqlStatements,
    bell: OutboxBell,
  ) {
    super(records, mysql, bell);
  }

  protected isUniqueViolation(driverError: { code?: unknown; errno?: unknown }): boolean {
    return driverError.errno === DUPLICATE_ENTRY || driverError.code === 'ER_DUP_ENTRY';
  }

  async delete(name: string, eventsOf?: (deleted: Model) => readonly WebhookEvent[]): Promise<Model | null> {
    const deleted = await this.mysql.transaction(async (session) => {
      const [row] = await session.rows<Record<string, unknown>>('SELECT * FROM models WHERE name = ? FOR UPDATE', [name]);
      if (row === undefined) return { value: null };
      await session.write('DELETE FROM models WHERE name = ?', [name]);
      const model = this.modelOf(row);
      const writes = this.outbox.events(eventsOf?.(model) ?? []);
      for (let step = writes.next(); !step.done; step = writes.next(0)) {
        await session.write(
          step.value.sql,
          step.value.params.map((v) => (v instanceof Date ? mysqlInstant(v) : v)),
        );
      }
      return { value: model };
    });
    if (deleted && eventsOf) this.bell.ring();
    return deleted;
  }
}
