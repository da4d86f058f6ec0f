import { type ApiKey, ApiKeyRepository, type KeyRotation } from '@svc/domain';
import { IsNull, type Repository } from 'typeorm';
import { ApiKeyMapper } from '../mappers/api-key.mapper';
import { RecordHydrator } from '../record-hydrator';
import { RecordValues } from '../record-values';
import { type PreparedStatement, type SqlStatements } from '../sql-statements';
import { ApiKeyRecord } from '../records/api-key.record';

/** The predecessor's columns a rotation writes, in the order ROTATE_PREDECESSOR binds them (then its id). */
export const ROTATED_COLUMNS = ['rotated_to', 'expires_at', 'revoked_at'] as const;

/**
 * The conditional UPDATE that decides a rotation's single winner: the
 * predecessor is marked only while neither rotated nor revoked.
 */
export const ROTATE_PREDECESSOR =
  'UPDATE api_keys SET rotated_to = ?, expires_at = ?, revoked_at = ? WHERE id = ? AND rotated_to IS NULL AND revoked_at IS NULL';

/** The rows a rotation writes: the predecessor's new columns (ROTATED_COLUMNS, then its id) and the successor's record. */
export interface RotationRows {
  readonly predecessor: unknown[];
  readonly successor: unknown[];
}

/**
 * Keys on a SQL database: reads on prepared statements and the portable
 * conditional updates are shared; the rotation (a conditional update and an
 * insert, together) is each database's own atomic step, in its module.
 */
export abstract class TypeOrmApiKeyRepository extends ApiKeyRepository {
  private readonly keyRows: RecordHydrator<ApiKeyRecord>;
  protected readonly keyValues: RecordValues<ApiKeyRecord>;
  private byDigest?: PreparedStatement;
  private byId?: PreparedStatement;
  private byLicense?: PreparedStatement;

  constructor(
    private readonly records: Repository<ApiKeyRecord>,
    private readonly statements: SqlStatements,
  ) {
    super();
    this.keyRows = new RecordHydrator(records.manager.connection, ApiKeyRecord);
    this.keyValues = new RecordValues(records.manager.connection, ApiKeyRecord);
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

  async insert(key: ApiKey): Promise<void> {
    await this.records.insert(ApiKeyMapper.toRecord(key));
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

  /** Portable: one conditional UPDATE (`revoked_at IS NULL`), whose affected count every driver reports. */
  async markRevoked(id: string, at: Date): Promise<boolean> {
    const result = await this.records.update({ id, revokedAt: IsNull() }, { revokedAt: at });
    return (result.affected ?? 0) === 1;
  }

  rotate(rotation: KeyRotation): Promise<boolean> {
    const { predecessor, successor, predecessorExpiresAt, predecessorRevokedAt } = rotation;
    const marked = ApiKeyMapper.toRecord(predecessor);
    marked.rotatedTo = successor.id;
    marked.expiresAt = predecessorExpiresAt;
    marked.revokedAt = predecessorRevokedAt;
    return this.rotateAtomically({
      predecessor: [...this.keyValues.of(marked, ROTATED_COLUMNS), predecessor.id],
      successor: this.keyValues.of(ApiKeyMapper.toRecord(successor)),
    });
  }

  /**
   * The database's atomic step: ROTATE_PREDECESSOR with `rows.predecessor`
   * and, only when it changed the row, the successor's insert
   * (`keyValues.insertSql()` with `rows.successor`). True when both happened.
   */
  protected abstract rotateAtomically(rows: RotationRows): Promise<boolean>;
}
