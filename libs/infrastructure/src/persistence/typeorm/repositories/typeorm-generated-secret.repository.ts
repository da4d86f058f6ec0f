import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { GeneratedSecretRepository } from '@svc/domain';
import { Repository } from 'typeorm';
import { GeneratedSecretRecord } from '../records/generated-secret.record';

/**
 * Generated secrets on every SQL database: insert-if-absent under the name
 * (TypeORM's `orIgnore`: ON CONFLICT DO NOTHING, INSERT IGNORE, INSERT OR
 * IGNORE), then read back, so instances racing at start-up all keep the first.
 */
@Injectable()
export class TypeOrmGeneratedSecretRepository extends GeneratedSecretRepository {
  constructor(@InjectRepository(GeneratedSecretRecord) private readonly records: Repository<GeneratedSecretRecord>) {
    super();
  }

  async find(name: string): Promise<string | null> {
    return (await this.records.findOneBy({ name }))?.value ?? null;
  }

  async keepFirst(name: string, value: string, at: Date): Promise<string> {
    await this.records.createQueryBuilder().insert().values({ name, value, createdAt: at }).orIgnore().execute();
    const kept = await this.find(name);
    if (kept === null) throw new Error(`the generated secret ${name} was neither kept nor found`);
    return kept;
  }
}
