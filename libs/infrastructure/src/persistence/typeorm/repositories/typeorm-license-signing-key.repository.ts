import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type LicenseSigningKey, LicenseSigningKeyRepository } from '@svc/domain';
import { In, Repository } from 'typeorm';
import { SecretsCipher } from '../../../crypto/secrets-cipher';
import { LicenseSigningKeyRecord } from '../records/license-signing-key.record';
import { SqlStatements } from '../sql-statements';

/**
 * Generated signing keys on every SQL database, by generation: a new one is
 * inserted only if its generation is free (TypeORM's `orIgnore`), so of
 * instances that start together, or rotations that race, one wins. Its writes
 * take their turn (SqlStatements.inTurn). The private keys are sealed by the
 * SecretsCipher (encrypted at rest with SECRETS_KEY).
 */
@Injectable()
export class TypeOrmLicenseSigningKeyRepository extends LicenseSigningKeyRepository {
  constructor(
    @InjectRepository(LicenseSigningKeyRecord) private readonly records: Repository<LicenseSigningKeyRecord>,
    private readonly cipher: SecretsCipher,
    private readonly statements: SqlStatements,
  ) {
    super();
  }

  async list(): Promise<LicenseSigningKey[]> {
    const records = await this.records.find({ order: { generation: 'ASC' } });
    return records.map((record) => this.toDomain(record));
  }

  async addIfAbsent(key: LicenseSigningKey): Promise<boolean> {
    await this.statements.inTurn(() =>
      this.records
        .createQueryBuilder()
        .insert()
        .values({ ...key, privateKey: this.cipher.seal(key.privateKey) })
        .orIgnore()
        .execute(),
    );
    // read back rather than trust each driver's count of affected rows: a generated key is unique
    const kept = await this.records.findOneBy({ generation: key.generation });
    return kept !== null && this.toDomain(kept).privateKey === key.privateKey;
  }

  private toDomain({ generation, privateKey, createdAt, signsFrom }: LicenseSigningKeyRecord): LicenseSigningKey {
    return {
      generation,
      privateKey: this.cipher.open(privateKey, `license_signing_keys.private_key of generation ${generation}`),
      createdAt,
      signsFrom,
    };
  }

  async remove(generations: readonly number[]): Promise<void> {
    if (generations.length > 0) await this.statements.inTurn(() => this.records.delete({ generation: In([...generations]) }));
  }
}
