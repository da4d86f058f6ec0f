import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { KeyContext, KeyContextRepository } from '@svc/domain';
import { DataSource } from 'typeorm';
import { ApiKeyMapper } from '../mappers/api-key.mapper';
import { UserMapper } from '../mappers/user.mapper';
import { RecordHydrator } from '../record-hydrator';
import { PreparedStatement, SqlStatements } from '../sql-statements';
import { ApiKeyRecord } from '../records/api-key.record';
import { UserRecord } from '../records/user.record';
import { LicenseTokenRecord } from '../records/license-token.record';
import { storedLicenseFrom } from './sql-stored-license.repository';

/**
 * Validate's read as one prepared statement: the key by its unique digest,
 * joined to its user, its license's counter of the period (absent: 0) and its stored
 * signed license (absent: null; issue 40). One synchronous
 * step on SQLite, one round trip on a database server.
 */
@Injectable()
export class TypeOrmKeyContextRepository extends KeyContextRepository {
  private readonly keyRows: RecordHydrator<ApiKeyRecord>;
  private readonly userRows: RecordHydrator<UserRecord>;
  private readonly licenseRows: RecordHydrator<LicenseTokenRecord>;
  private query?: PreparedStatement;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly statements: SqlStatements,
  ) {
    super();
    this.keyRows = new RecordHydrator(dataSource, ApiKeyRecord, 'k_');
    this.userRows = new RecordHydrator(dataSource, UserRecord, 'u_');
    this.licenseRows = new RecordHydrator(dataSource, LicenseTokenRecord, 't_');
  }

  async findByDigest(digest: string, periodKey: string): Promise<KeyContext | null> {
    this.query ??= this.statements.prepare(
      'key_context_by_digest',
      `SELECT ${this.keyRows.selectList('k')}, ${this.userRows.selectList('u')}, ${this.licenseRows.selectList('t')}, COALESCE(c.used, 0) AS used ` +
        'FROM api_keys k JOIN users u ON u.id = k.user_id ' +
        'LEFT JOIN usage_counters c ON c.license_id = k.license_id AND c.period = ? ' +
        "LEFT JOIN license_tokens t ON t.key_id = k.id AND t.device = '' " +
        'WHERE k.digest = ?',
    );
    const row = await this.query.first([periodKey, digest]);
    if (!row) return null;
    return {
      key: ApiKeyMapper.toDomain(this.keyRows.hydrate(row)),
      user: UserMapper.toDomain(this.userRows.hydrate(row)),
      used: Number(row.used),
      license: storedLicenseFrom(row, this.licenseRows),
    };
  }
}
