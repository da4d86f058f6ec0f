import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { UsageRepository } from '@svc/domain';
import { Repository } from 'typeorm';
import { UsageCounterRecord } from '../records/usage-counter.record';

/**
 * Counters in `usage_counters`, read through TypeORM's repository on every
 * database. They are consumed only together with an event, in each
 * database's own atomic step (its AnalyticsEventRepository).
 */
@Injectable()
export class SqlUsageRepository extends UsageRepository {
  constructor(@InjectRepository(UsageCounterRecord) private readonly counters: Repository<UsageCounterRecord>) {
    super();
  }

  async usedIn(licenseId: string, periodKey: string): Promise<number> {
    const counter = await this.counters.findOneBy({ licenseId, period: periodKey });
    return counter === null ? 0 : Number(counter.used);
  }
}
