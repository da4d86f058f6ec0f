import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { ApiKey, ApiKeyRepository } from '@svc/domain';
import { IsNull, Repository } from 'typeorm';
import { ApiKeyMapper } from '../mappers/api-key.mapper';
import { RecordHydrator } from '../record-hydrator';
import { PreparedStatement, SqlStatements } from '../sql-statements';
import { ApiKeyRecord } from '../records/api-key.record';

@Injectable()
export class TypeOrmApiKeyRepository extends ApiKeyRepository {
  private readonly keyRows: RecordHydrator<ApiKeyRecord>;
  private byDigest?: PreparedStatement;
  private byId?: PreparedStatement;

  constructor(
    @InjectRepository(ApiKeyRecord) private readonly records: Repository<ApiKeyRecord>,
    private readonly statements: SqlStatements,
  ) {
    super();
    this.keyRows = new RecordHydrator(records.manager.connection, ApiKeyRecord);
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
}
