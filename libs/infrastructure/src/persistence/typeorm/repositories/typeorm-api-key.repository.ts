import { ApiKeyRepository, keyExpiringEventId } from '@svc/domain';
import type { ApiKey, ExpiringKey, KeyChangeRecords, KeyRotation, RecordsOfRevoked, Revocation } from '@svc/domain';
import { type EntityManager, IsNull, type Repository } from 'typeorm';
import { type AuditLines } from '../../../audit/logging-audit-log';
import { ApiKeyMapper } from '../mappers/api-key.mapper';
import { RecordHydrator } from '../record-hydrator';
import { type OutboxBell, OutboxWrites } from '../outbox';
import { type PreparedStatement, type SqlStatements } from '../sql-statements';
import { ApiKeyRecord } from '../records/api-key.record';

/** What a key change's transaction answers: whether it happened, and the records it wrote (logged once committed). */
interface Written {
  readonly changed: boolean;
  readonly records: readonly KeyChangeRecords[];
}

/**
 * Keys on a SQL database: reads on prepared statements (every request reads
 * its key), and each key change (issue, rotation, revocation) with its
 * records in one transaction (SqlStatements.transaction), its winner decided
 * by a conditional UPDATE. Audit entries written with a change are logged
 * as lines once it is committed.
 */
export class TypeOrmApiKeyRepository extends ApiKeyRepository {
  private readonly keyRows: RecordHydrator<ApiKeyRecord>;
  private readonly outbox: OutboxWrites;
  private byDigest?: PreparedStatement;
  private byId?: PreparedStatement;
  private byLicense?: PreparedStatement;

  constructor(
    private readonly records: Repository<ApiKeyRecord>,
    private readonly statements: SqlStatements,
    private readonly lines: AuditLines,
    private readonly bell: OutboxBell,
  ) {
    super();
    this.keyRows = new RecordHydrator(records.manager.connection, ApiKeyRecord);
    this.outbox = new OutboxWrites(records.manager.connection);
  }

  /** Every authenticated request's read: one prepared statement on the unique digest index. */
  async findByDigest(digest: string): Promise<ApiKey | null> {
    this.byDigest ??= this.statements.prepare(
      'api_key_by_digest',
      `SELECT ${this.keyRows.selectList('k')} FROM api_keys k WHERE k.digest = ?`,
    );
    const row = await this.byDigest.first([digest]);
    return row ? ApiKeyMapper.toDomain(this.keyRows.hydrate(row)) : null;
  }

  /**
   * A prepared statement too, so every read of a key (the one record with an
   * instant an operator chooses, `expires_at`) goes through the database's
   * statements, which read every year exactly (see MySqlStatements).
   */
  async findById(id: string): Promise<ApiKey | null> {
    this.byId ??= this.statements.prepare('api_key_by_id', `SELECT ${this.keyRows.selectList('k')} FROM api_keys k WHERE k.id = ?`);
    const row = await this.byId.first([id]);
    return row ? ApiKeyMapper.toDomain(this.keyRows.hydrate(row)) : null;
  }

  async findByLicense(licenseId: string): Promise<ApiKey[]> {
    this.byLicense ??= this.statements.prepare(
      'api_keys_by_license',
      `SELECT ${this.keyRows.selectList('k')} FROM api_keys k WHERE k.license_id = ? ORDER BY k.created_at, k.id`,
    );
    return (await this.byLicense.all([licenseId])).map((row) => ApiKeyMapper.toDomain(this.keyRows.hydrate(row)));
  }

  async findExpiringBetween(from: Date, until: Date, limit: number): Promise<ExpiringKey[]> {
    const rows = await this.statements
      .prepare(
        `api_keys_expiring_${Math.trunc(limit)}`,
        `SELECT k.id AS id, k.display_prefix AS prefix, k.license_id AS license_id, k.expires_at AS expires_at FROM api_keys k
          WHERE k.revoked_at IS NULL AND k.rotated_to IS NULL AND k.expires_at > ? AND k.expires_at <= ?
            AND NOT EXISTS (SELECT 1 FROM webhook_events e WHERE e.id = CONCAT('${keyExpiringEventId('')}', k.id))
          ORDER BY k.expires_at LIMIT ${Math.trunc(limit)}`,
      )
      .all([this.keyRows.bind('expiresAt', from), this.keyRows.bind('expiresAt', until)]);
    return rows.map((row) => {
      const key = this.keyRows.hydrate({ id: row.id, expires_at: row.expires_at });
      return { id: String(row.id), prefix: String(row.prefix), licenseId: String(row.license_id), expiresAt: key.expiresAt };
    });
  }

  async insert(key: ApiKey, records: KeyChangeRecords = { audit: [] }): Promise<void> {
    await this.change(async (manager) => {
      await this.insertKey(manager, key);
      await this.recordWrites(manager, [records]);
      return { changed: true, records: [records] };
    });
  }

  async updateTerms(key: ApiKey): Promise<boolean> {
    const terms = { licenseType: key.licenseType, expiresAt: key.expiresAt, ...ApiKeyMapper.limitColumns(key.props.monthlyLimit) };
    const result = await this.statements.inTurn(() => this.records.update({ id: key.id, revokedAt: IsNull() }, terms));
    return (result.affected ?? 0) === 1;
  }

  revoke(revocation: Revocation, recordsOf: RecordsOfRevoked): Promise<boolean> {
    return this.change((manager) => this.revocationWrites(manager, revocation, recordsOf));
  }

  rotate(rotation: KeyRotation, records: KeyChangeRecords): Promise<boolean> {
    return this.change((manager) => this.rotationWrites(manager, rotation, records));
  }

  /**
   * The key's conditional UPDATE decides the winner: a key is revoked only while not revoked. When the
   * revocation carries predecessors, it is first tried as the license's current key (not rotated), and only
   * that revokes them. Then each revoked key's records.
   */
  private async revocationWrites(
    manager: EntityManager,
    { keyId, at, predecessorsInGrace }: Revocation,
    recordsOf: RecordsOfRevoked,
  ): Promise<Written> {
    const revoke = async (id: string, current: boolean) => {
      const query = manager
        .createQueryBuilder()
        .update(ApiKeyRecord)
        .set({ revokedAt: at })
        .where('id = :id AND revoked_at IS NULL', { id });
      return (await (current ? query.andWhere('rotated_to IS NULL') : query).execute()).affected === 1;
    };
    const revoked = [keyId];
    if (predecessorsInGrace.length > 0 && (await revoke(keyId, true))) {
      for (const id of predecessorsInGrace) if (await revoke(id, false)) revoked.push(id);
    } else if (!(await revoke(keyId, false))) {
      return { changed: false, records: [] };
    }
    const records = revoked.map(recordsOf);
    await this.recordWrites(manager, records);
    return { changed: true, records };
  }

  private async insertKey(manager: EntityManager, key: ApiKey): Promise<void> {
    await manager.createQueryBuilder().insert().into(ApiKeyRecord).values(ApiKeyMapper.toRecord(key)).updateEntity(false).execute();
  }

  /** The predecessor marked only while neither rotated nor revoked (the single winner); only then the successor's insert and the records. */
  private async rotationWrites(manager: EntityManager, rotation: KeyRotation, records: KeyChangeRecords): Promise<Written> {
    const { predecessor, successor, predecessorExpiresAt, predecessorRevokedAt } = rotation;
    const marked = await manager
      .createQueryBuilder()
      .update(ApiKeyRecord)
      .set({ rotatedTo: successor.id, expiresAt: predecessorExpiresAt, revokedAt: predecessorRevokedAt })
      .where('id = :id AND rotated_to IS NULL AND revoked_at IS NULL', { id: predecessor.id })
      .execute();
    if (marked.affected !== 1) return { changed: false, records: [] };
    await this.insertKey(manager, successor);
    await this.recordWrites(manager, [records]);
    return { changed: true, records: [records] };
  }

  /** A key change in one transaction; once it is committed, its audit entries logged and the outbox's bell rung for its events. */
  private async change(work: (manager: EntityManager) => Promise<Written>): Promise<boolean> {
    const { changed, records } = await this.statements.transaction(work);
    for (const entry of records.flatMap((r) => r.audit)) this.lines.stored(entry);
    if (records.some((r) => (r.events ?? []).length > 0)) this.bell.ring();
    return changed;
  }

  /** The one place a key change's records are written, in its transaction: each kind of record, in order. */
  private async recordWrites(manager: EntityManager, records: readonly KeyChangeRecords[]): Promise<void> {
    await this.outbox.audit(
      manager,
      records.flatMap((r) => r.audit),
    );
    await this.outbox.events(
      manager,
      records.flatMap((r) => r.events ?? []),
    );
  }
}
