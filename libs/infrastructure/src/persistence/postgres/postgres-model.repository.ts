import { type Model, type WebhookEvent } from '@svc/domain';
import { type Repository } from 'typeorm';
import { type OutboxBell } from '../typeorm/outbox';
import { type ModelRecord } from '../typeorm/records/model.record';
import { ReturningDeleteModelRepository } from '../typeorm/repositories/sql-model.repository';
import { type PostgresStatements, numbered } from './postgres-statements';

/** unique_violation. */
const UNIQUE_VIOLATION = '23505';

/** The registry on PostgreSQL: a taken name is SQLSTATE 23505. */
export class PostgresModelRepository extends ReturningDeleteModelRepository {
  constructor(
    records: Repository<ModelRecord>,
    private readonly postgres: PostgresStatements,
    bell: OutboxBell,
  ) {
    super(records, postgres, bell);
  }

  protected isUniqueViolation(driverError: { code?: unknown }): boolean {
    return driverError.code === UNIQUE_VIOLATION;
  }

  /** One transaction on one client of the pool: the delete, then the events. */
  protected async deleteRecording(name: string, eventsOf: (deleted: Model) => readonly WebhookEvent[]): Promise<Model | null> {
    return this.postgres.inTransaction(async (client) => {
      const { rows } = await client.query<Record<string, unknown>>(numbered(ReturningDeleteModelRepository.DELETE_RETURNING), [name]);
      if (rows.length === 0) return null;
      const model = this.modelOf(rows[0]);
      const writes = this.outbox.events(eventsOf(model));
      for (let step = writes.next(); !step.done; step = writes.next(0))
        await client.query(numbered(step.value.sql), step.value.params as unknown[]);
      return model;
    });
  }
}
