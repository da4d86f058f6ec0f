import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { GeneratedSecretRepository } from '@svc/domain';
import { Repository } from 'typeorm';
import { SecretsCipher } from '../../../crypto/secrets-cipher';
import { GeneratedSecretRecord } from '../records/generated-secret.record';
import { SqlStatements } from '../sql-statements';

/**
 * Generated secrets on every SQL database: insert-if-absent under the name
 * (TypeORM's `orIgnore`: ON CONFLICT DO NOTHING, INSERT IGNORE, INSERT OR
 * IGNORE), then read back, so instances racing at start-up all keep the first.
 * Values are sealed by the SecretsCipher (encrypted at rest with SECRETS_KEY).
 */
@Injectable()
export class TypeOrmGeneratedSecretRepository extends GeneratedSecretRepository {
  constructor(
    @InjectRepository(GeneratedSecretRecord) private readonly records: Repository<GeneratedSecretRecord>,
    private readonly cipher: SecretsCipher,
    private readonly statements: SqlStatements,
  ) {
    super();
  }

  async find(name: string): Promise<string | null> {
    const record = await this.records.findOneBy({ name });
    return record === null ? null : this.cipher.open(record.value, `generated_secrets.value of ${name}`);
  }

  async keepFirst(name: string, value: string, at: Date): Promise<string> {
    const sealed = this.cipher.seal(value);
    // in its turn among the process's transactions (SqlStatements.inTurn), so that none takes it in
    await this.statements.inTurn(() =>
      this.records.createQueryBuilder().insert().values({ name, value: sealed, createdAt: at }).orIgnore().execute(),
    );
    const kept = await this.find(name);
    if (kept === null) throw new Error(`the generated secret ${name} was neither kept nor found`);
    return kept;
  }
}
