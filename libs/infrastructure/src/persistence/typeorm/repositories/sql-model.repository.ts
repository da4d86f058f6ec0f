import { type Model, type ModelFile, ModelRepository, type WebhookEvent } from '@svc/domain';
import { type EntityManager, IsNull, QueryFailedError, type Repository } from 'typeorm';
import { type DriverFaults } from '../../driver-faults';
import { ModelMapper } from '../mappers/model.mapper';
import { type OutboxBell, OutboxWrites } from '../outbox';
import { RecordHydrator } from '../record-hydrator';
import { type PreparedStatement, type SqlStatements } from '../sql-statements';
import { ModelRecord } from '../records/model.record';

/**
 * The registry's records on every SQL database: reads on prepared
 * statements (every SDK lists the models), and each change with its
 * webhook events in one transaction (SqlStatements.transaction), the events
 * written only when the change happened and the bell rung once committed.
 */
export class SqlModelRepository extends ModelRepository {
  private readonly modelRows: RecordHydrator<ModelRecord>;
  private readonly outbox: OutboxWrites;
  private reads?: { byName: PreparedStatement; all: PreparedStatement };

  constructor(
    private readonly records: Repository<ModelRecord>,
    private readonly statements: SqlStatements,
    private readonly bell: OutboxBell,
    /** The database's driver faults: which error is a taken name. */
    private readonly faults: DriverFaults,
  ) {
    super();
    this.modelRows = new RecordHydrator(records.manager.connection, ModelRecord);
    this.outbox = new OutboxWrites(records.manager.connection);
  }

  /** The two reads keys make (list, one record): prepared statements. */
  private prepared(): { byName: PreparedStatement; all: PreparedStatement } {
    if (!this.reads) {
      const columns = this.modelRows.selectList('m');
      this.reads = {
        byName: this.statements.prepare('model_by_name', `SELECT ${columns} FROM models m WHERE m.name = ?`),
        all: this.statements.prepare('models_all', `SELECT ${columns} FROM models m ORDER BY m.paradigm ASC, m.name ASC`),
      };
    }
    return this.reads;
  }

  async findByName(name: string): Promise<Model | null> {
    const row = await this.prepared().byName.first([name]);
    return row ? ModelMapper.toDomain(this.modelRows.hydrate(row)) : null;
  }

  async list(): Promise<Model[]> {
    return (await this.prepared().all.all([])).map((row) => ModelMapper.toDomain(this.modelRows.hydrate(row)));
  }

  /** False when the name is taken (the database's unique-key violation). */
  async insert(model: Model, events: readonly WebhookEvent[] = []): Promise<boolean> {
    try {
      return await this.withEvents(events, async (manager) => {
        await manager.createQueryBuilder().insert().into(ModelRecord).values(ModelMapper.toRecord(model)).updateEntity(false).execute();
        return true;
      });
    } catch (error) {
      if (error instanceof QueryFailedError && this.faults.duplicateKey(error.driverError as object)) return false;
      throw error;
    }
  }

  async updateDescription(model: Model): Promise<boolean> {
    return this.withEvents([], async (manager) => {
      const result = await manager.update(ModelRecord, { name: model.name }, ModelMapper.descriptionColumns(model));
      return result.affected === 1;
    });
  }

  async updateUnstored(model: Model, events: readonly WebhookEvent[] = []): Promise<boolean> {
    return this.withEvents(events, async (manager) => {
      const result = await manager.update(ModelRecord, { name: model.name }, ModelMapper.unstoredColumns(model));
      return result.affected === 1;
    });
  }

  /** One UPDATE conditional on the stored file: of uploads racing, the one that read the file still there wins. */
  async replaceFile(
    name: string,
    expected: string | null,
    file: ModelFile,
    at: Date,
    events: readonly WebhookEvent[] = [],
  ): Promise<boolean> {
    const columns = { storedFile: file.storedFile, checksum: file.checksum, sizeBytes: file.sizeBytes, updatedAt: at };
    return this.withEvents(events, async (manager) => {
      const result = await manager.update(ModelRecord, { name, storedFile: expected === null ? IsNull() : expected }, columns);
      return result.affected === 1;
    });
  }

  /**
   * The record and what it held, so that the file removed is the one the deleted row named: a write
   * that changes nothing first locks the row (the database's one write lock on SQLite), then it is
   * read and deleted, and the events of the deleted record written, in one transaction.
   */
  async delete(name: string, eventsOf?: (deleted: Model) => readonly WebhookEvent[]): Promise<Model | null> {
    const deleted = await this.statements.transaction(async (manager) => {
      await manager
        .createQueryBuilder()
        .update(ModelRecord)
        .set({ name: () => 'name' })
        .where('name = :name', { name })
        .execute();
      const record = await manager.findOneBy(ModelRecord, { name });
      if (!record) return null;
      await manager.delete(ModelRecord, { name });
      const model = ModelMapper.toDomain(record);
      await this.outbox.events(manager, eventsOf?.(model) ?? []);
      return model;
    });
    if (deleted && eventsOf) this.bell.ring();
    return deleted;
  }

  /** A change and its webhook events in one transaction, the events only when the change happened; the bell rung once committed. */
  private async withEvents(events: readonly WebhookEvent[], change: (manager: EntityManager) => Promise<boolean>): Promise<boolean> {
    const changed = await this.statements.transaction(async (manager) => {
      if (!(await change(manager))) return false;
      await this.outbox.events(manager, events);
      return true;
    });
    if (changed && events.length > 0) this.bell.ring();
    return changed;
  }
}
