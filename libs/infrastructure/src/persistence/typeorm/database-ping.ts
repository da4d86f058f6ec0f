import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PreparedQuery } from './prepared-query';

/** How long the database may take to answer a ping before it counts as down (health, readiness, gauge). */
export const DATABASE_PING_TIMEOUT_MS = 1500;

/**
 * Whether the database answers `SELECT 1` within a time limit: the health
 * endpoint, the readiness probe and the `svc_database_up` gauge ask it. The
 * statement is prepared once (on PostgreSQL it waits for a pool connection
 * like any query, and the limit covers that wait). It replaced
 * @nestjs/terminus's TypeORM ping, which resolved its packages and the data
 * source and built a query runner on every call: about 130 µs of CPU per
 * health request under load against 16 µs for the whole ceiling answer
 * (docs/PERFORMANCE.md).
 */
@Injectable()
export class DatabasePing {
  private readonly ping: PreparedQuery;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.ping = new PreparedQuery(dataSource, 'ping', 'SELECT 1 AS up');
  }

  async answers(): Promise<boolean> {
    if (!this.dataSource.isInitialized) return false;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), DATABASE_PING_TIMEOUT_MS);
    });
    try {
      const answered = this.ping.first([]).then(
        () => true,
        () => false,
      );
      return await Promise.race([answered, late]);
    } finally {
      clearTimeout(timer);
    }
  }
}
