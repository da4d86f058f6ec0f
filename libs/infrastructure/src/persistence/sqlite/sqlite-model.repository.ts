import { type Model, type WebhookEvent } from '@svc/domain';
import { type Repository } from 'typeorm';
import { type OutboxBell } from '../typeorm/outbox';
import { type ModelRecord } from '../typeorm/records/model.record';
import { ReturningDeleteModelRepository } from '../typeorm/repositories/sql-model.repository';
import { type SqliteStatements } from './sqlite-statements';

/** The registry on SQLite: a taken name is a primary-key (or unique) constraint failure. */
export class SqliteModelRepository extends ReturningDeleteModelRepository {
  constructor(
    records: Repository<ModelRecord>,
    private readonly sqlite: SqliteStatements,
    bell: OutboxBell,
  ) {
    super(records, sqlite, bell);
  }

  protected isUniqueViolation(driverError: { code?: unknown }): boolean {
    return driverError.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || driverError.code === 'SQLITE_CONSTRAINT_UNIQUE';
  }

  /** One synchronous better-sqlite3 transaction (BEGIN IMMEDIATE), in its turn: the delete, then the events. */
  protected async deleteRecording(name: string, eventsOf: (deleted: Model) => readonly WebhookEvent[]): Promise<Model | null> {
    const db = this.sqlite.database;
    const run = db.transaction((): Model | null => {
      const row = db.prepare(ReturningDeleteModelRepository.DELETE_RETURNING).get(name) as Record<string, unknown> | undefined;
      if (!row) return null;
      const model = this.modelOf(row);
      const writes = this.outbox.events(eventsOf(model));
      for (let step = writes.next(); !step.done; step = writes.next(0)) db.prepare(step.value.sql).run(...step.value.params);
      return model;
    });
    return this.sqlite.inTurn(() => run.immediate());
  }
}
