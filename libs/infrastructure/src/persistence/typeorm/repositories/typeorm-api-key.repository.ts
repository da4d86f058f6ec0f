import { ApiKeyRepository, keyExpiringEventId } from '@svc/domain';
import type { ApiKey, ExpiringKey, KeyChangeRecords, KeyRotation, RecordsOfRevoked, Revocation } from '@svc/domain';
import { IsNull, type Repository } from 'typeorm';
import { type AuditLines } from '../../../audit/logging-audit-log';
import { ApiKeyMapper } from '../mappers/api-key.mapper';
import { RecordHydrator } from '../record-hydrator';
import { type OutboxBell, OutboxWrites } from '../outbox';
import { RecordValues } from '../record-values';
import { type PreparedStatement, type SqlStatements, type WriteScript } from '../sql-statements';
import { ApiKeyRecord } from '../records/api-key.record';

/** The predecessor's columns a rotation writes, in the order ROTATE_PREDECESSOR binds them (then its id). */
const ROTATED_COLUMNS = ['rotated_to', 'expires_at', 'revoked_at'] as const;

/**
 * The conditional UPDATE that decides a rotation's single winner: the
 * predecessor is marked only while neither rotated nor revoked.
 */
const ROTATE_PREDECESSOR =
  'UPDATE api_keys SET rotated_to = ?, expires_at = ?, revoked_at = ? WHERE id = ? AND rotated_to IS NULL AND revoked_at IS NULL';

/** The conditional UPDATE that decides a revocation's single winner (and revokes a predecessor only while not revoked). */
const REVOKE = 'UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL';

/** REVOKE, only while the key is still its license's current key (not rotated): then its predecessors go with it. */
const REVOKE_CURRENT = `${REVOKE} AND rotated_to IS NULL`;

/** What a key change's transaction answers: whether it happened, and the records it wrote (logged once committed). */
interface Written {
  readonly changed: boolean;
  readonly records: readonly KeyChangeRecords[];
}

/**
 * Keys on a SQL database: reads on prepared statements, the portable
 * conditional updates, and the key changes (rotation, revocation) as one
 * script of writes with their records, which each database runs in one
 * transaction of its own (SqlStatements.writeTogether). Audit entries
 * written with a change are logged as lines once it is committed.
 */
export class TypeOrmApiKeyRepository extends ApiKeyRepository {
  private readonly keyRows: RecordHydrator<ApiKeyRecord>;
  private readonly keyValues: RecordValues<ApiKeyRecord>;
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
    this.keyValues = new RecordValues(records.manager.connection, ApiKeyRecord);
    this.outbox = new OutboxWrites(records.manager.connection, statements);
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
    await this.change(() => this.insertWrites(key, records));
  }

  async updateTerms(key: ApiKey): Promise<boolean> {
    const result = await this.records.update(
      { id: key.id, revokedAt: IsNull() },
      {
        licenseType: key.licenseType,
        expiresAt: key.expiresAt,
        ...ApiKeyMapper.limitColumns(key.props.monthlyLimit),
      },
    );
    return (result.affected ?? 0) === 1;
  }

  revoke(revocation: Revocation, recordsOf: RecordsOfRevoked): Promise<boolean> {
    return this.change(() => this.revocationWrites(revocation, recordsOf));
  }

  rotate(rotation: KeyRotation, records: KeyChangeRecords): Promise<boolean> {
    return this.change(() => this.rotationWrites(rotation, records));
  }

  /**
   * The key's conditional UPDATE decides the winner; when the revocation
   * carries predecessors, it is first tried as the license's current key
   * (REVOKE_CURRENT), and only that revokes them. Then each revoked key's records.
   */
  private *revocationWrites({ keyId, at, predecessorsInGrace }: Revocation, recordsOf: RecordsOfRevoked): WriteScript<Written> {
    const revokedAt = this.keyValues.of(Object.assign(new ApiKeyRecord(), { revokedAt: at }), ['revoked_at'])[0];
    const revoked = [keyId];
    if (predecessorsInGrace.length > 0 && (yield { sql: REVOKE_CURRENT, params: [revokedAt, keyId] }) === 1) {
      for (const id of predecessorsInGrace) if ((yield { sql: REVOKE, params: [revokedAt, id] }) === 1) revoked.push(id);
    } else if ((yield { sql: REVOKE, params: [revokedAt, keyId] }) !== 1) {
      return { changed: false, records: [] };
    }
    const records = revoked.map(recordsOf);
    yield* this.recordWrites(records);
    return { changed: true, records };
  }

  private *insertWrites(key: ApiKey, records: KeyChangeRecords): WriteScript<Written> {
    yield { sql: this.keyValues.insertSql(), params: this.keyValues.of(ApiKeyMapper.toRecord(key)) };
    yield* this.recordWrites([records]);
    return { changed: true, records: [records] };
  }

  /** ROTATE_PREDECESSOR decides the winner; only then the successor's insert and the records. */
  private *rotationWrites(rotation: KeyRotation, records: KeyChangeRecords): WriteScript<Written> {
    const { predecessor, successor, predecessorExpiresAt, predecessorRevokedAt } = rotation;
    const marked = ApiKeyMapper.toRecord(predecessor);
    marked.rotatedTo = successor.id;
    marked.expiresAt = predecessorExpiresAt;
    marked.revokedAt = predecessorRevokedAt;
    const mark = [...this.keyValues.of(marked, ROTATED_COLUMNS), predecessor.id];
    if ((yield { sql: ROTATE_PREDECESSOR, params: mark }) !== 1) return { changed: false, records: [] };
    yield { sql: this.keyValues.insertSql(), params: this.keyValues.of(ApiKeyMapper.toRecord(successor)) };
    yield* this.recordWrites([records]);
    return { changed: true, records: [records] };
  }

  /** A key change in one transaction; once it is committed, its audit entries logged and the outbox's bell rung for its events. */
  private async change(script: () => WriteScript<Written>): Promise<boolean> {
    const { changed, records } = await this.statements.writeTogether(script);
    for (const entry of records.flatMap((r) => r.audit)) this.lines.stored(entry);
    if (records.some((r) => (r.events ?? []).length > 0)) this.bell.ring();
    return changed;
  }

  /** The one place a key change's records are written, in its transaction: each kind of record, in order. */
  private *recordWrites(records: readonly KeyChangeRecords[]): WriteScript<void> {
    yield* this.outbox.audit(records.flatMap((r) => r.audit));
    yield* this.outbox.events(records.flatMap((r) => r.events ?? []));
  }
}
