import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type ApiKey, type LicenseToRefresh, NO_DEVICE, type StoredLicense, StoredLicenseRepository } from '@svc/domain';
import { DataSource, type ObjectLiteral, type Repository } from 'typeorm';
import { ApiKeyMapper } from '../mappers/api-key.mapper';
import { RecordHydrator } from '../record-hydrator';
import { rowsInserted } from '../outbox';
import { ApiKeyRecord } from '../records/api-key.record';
import { LicenseTokenRecord } from '../records/license-token.record';
import { SqlStatements } from '../sql-statements';

/**
 * Each key's signed licenses in `license_tokens` (issue 40; one naming no device, `device` '',
 * and one per device of its license holding a seat), on every SQL database, in
 * portable SQL. `replace` is a compare-and-set on the stored token (an insert that
 * ignores a duplicate when none was stored), so of instances that sign one key's
 * license at once, one stores it and the others read it back. The refresh job's
 * reads join the key, so it re-signs with the key's terms as they are.
 */
@Injectable()
export class SqlStoredLicenseRepository extends StoredLicenseRepository {
  private readonly rows: RecordHydrator<LicenseTokenRecord>;
  private readonly joined: RecordHydrator<LicenseTokenRecord>;
  private readonly keyRows: RecordHydrator<ApiKeyRecord>;
  private readonly licenses: Repository<LicenseTokenRecord>;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly statements: SqlStatements,
  ) {
    super();
    this.rows = new RecordHydrator(dataSource, LicenseTokenRecord);
    this.joined = new RecordHydrator(dataSource, LicenseTokenRecord, 't_');
    this.keyRows = new RecordHydrator(dataSource, ApiKeyRecord, 'k_');
    this.licenses = dataSource.getRepository(LicenseTokenRecord);
  }

  async find(keyId: string, device = NO_DEVICE): Promise<StoredLicense | null> {
    const record = await this.licenses.findOneBy({ keyId, device });
    return record ? storedOf(record) : null;
  }

  async replace(keyId: string, expected: string | null, next: StoredLicense, device = NO_DEVICE): Promise<boolean> {
    const record = recordOf(keyId, device, next);
    return this.statements.transaction(async (manager) => {
      if (expected === null) {
        return (
          (await rowsInserted(manager, manager.createQueryBuilder().insert().into(LicenseTokenRecord).values(record).orIgnore())) === 1
        );
      }
      const { token, kid, terms, signedAt, refreshAt } = record;
      const changed = await manager.update(
        LicenseTokenRecord,
        { keyId, device, token: expected },
        { token, kid, terms, signedAt, refreshAt },
      );
      return changed.affected === 1;
    });
  }

  async put(keyId: string, next: StoredLicense, device = NO_DEVICE): Promise<void> {
    await this.statements.transaction(async (manager) => {
      await manager.delete(LicenseTokenRecord, { keyId, device });
      await manager
        .createQueryBuilder()
        .insert()
        .into(LicenseTokenRecord)
        .values(recordOf(keyId, device, next))
        .updateEntity(false)
        .execute();
    });
  }

  async forget(keyId: string, device?: string): Promise<void> {
    await this.statements.inTurn(() => this.licenses.delete(device === undefined ? { keyId } : { keyId, device }));
  }

  async forgetDevice(licenseId: string, device: string): Promise<void> {
    await this.statements.inTurn(() =>
      this.licenses
        .createQueryBuilder()
        .delete()
        .where('device = :device AND key_id IN (SELECT k.id FROM api_keys k WHERE k.license_id = :licenseId)', { device, licenseId })
        .execute(),
    );
  }

  async due(at: Date, limit: number): Promise<LicenseToRefresh[]> {
    const n = Math.trunc(limit);
    const rows = await this.statements
      .prepare(
        `license_tokens_due_${n}`,
        `SELECT ${this.joined.selectList('t')}, ${this.keyRows.selectList('k')} FROM license_tokens t JOIN api_keys k ON k.id = t.key_id
          WHERE t.refresh_at <= ? ORDER BY t.refresh_at LIMIT ${n}`,
      )
      .all([this.rows.bind('refreshAt', at)]);
    return rows.map((row) => this.refreshOf(row));
  }

  async signedByOther(kid: string, limit: number): Promise<LicenseToRefresh[]> {
    const n = Math.trunc(limit);
    const rows = await this.statements
      .prepare(
        `license_tokens_other_kid_${n}`,
        `SELECT ${this.joined.selectList('t')}, ${this.keyRows.selectList('k')} FROM license_tokens t JOIN api_keys k ON k.id = t.key_id
          WHERE t.kid < ? OR t.kid > ? LIMIT ${n}`,
      )
      // two ranges of ix_license_tokens_kid: nothing read when every license has the current kid
      .all([kid, kid]);
    return rows.map((row) => this.refreshOf(row));
  }

  async keysAfter(afterKeyId: string, limit: number): Promise<Array<{ key: ApiKey; hasLicense: boolean }>> {
    const n = Math.trunc(limit);
    const rows = await this.statements
      .prepare(
        `license_tokens_keys_after_${n}`,
        `SELECT ${this.keyRows.selectList('k')},
            CASE WHEN EXISTS (SELECT 1 FROM license_tokens t WHERE t.key_id = k.id AND t.device = '') THEN 1 ELSE 0 END AS has_license
          FROM api_keys k WHERE k.id > ? ORDER BY k.id LIMIT ${n}`,
      )
      .all([afterKeyId]);
    return rows.map((row) => ({ key: ApiKeyMapper.toDomain(this.keyRows.hydrate(row)), hasLicense: Number(row.has_license) === 1 }));
  }

  async claim(keyId: string, device: string, seen: Date, until: Date): Promise<boolean> {
    const claimed = await this.statements.inTurn(() => this.licenses.update({ keyId, device, refreshAt: seen }, { refreshAt: until }));
    return claimed.affected === 1;
  }

  private refreshOf(row: ObjectLiteral): LicenseToRefresh {
    const stored = this.joined.hydrate(row);
    return { key: ApiKeyMapper.toDomain(this.keyRows.hydrate(row)), device: stored.device, stored: storedOf(stored) };
  }
}

function storedOf({ token, kid, terms, signedAt, refreshAt }: LicenseTokenRecord): StoredLicense {
  return { token, kid, terms, signedAt, refreshAt };
}

function recordOf(keyId: string, device: string, { token, kid, terms, signedAt, refreshAt }: StoredLicense): LicenseTokenRecord {
  return Object.assign(new LicenseTokenRecord(), { keyId, device, token, kid, terms, signedAt, refreshAt });
}

/** The columns a stored license is read from in validate's one read (TypeOrmKeyContextRepository): `<alias>.<column> AS t_<column>`. */
export function storedLicenseFrom(row: ObjectLiteral, hydrator: RecordHydrator<LicenseTokenRecord>): StoredLicense | null {
  return row.t_token === null || row.t_token === undefined ? null : storedOf(hydrator.hydrate(row));
}
