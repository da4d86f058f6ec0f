import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DATABASE_PING_TIMEOUT_MS, DatabasePing } from '@svc/application';

/**
 * Whether a SQL database answers `SELECT 1` within the time limit (on a
 * database server it waits for a pool connection like any query, and the
 * limit covers that wait), through TypeORM's own `DataSource.query`. It
 * replaced @nestjs/terminus's TypeORM ping, which resolved its packages and
 * the data source on every call (docs/PERFORMANCE.md, the health ping).
 */
@Injectable()
export class SqlDatabasePing extends DatabasePing {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    super();
  }

  async answers(): Promise<boolean> {
    if (!this.dataSource.isInitialized) return false;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), DATABASE_PING_TIMEOUT_MS);
    });
    try {
      const answered = this.dataSource.query('SELECT 1 AS up').then(
        () => true,
        () => false,
      );
      return await Promise.race([answered, late]);
    } finally {
      clearTimeout(timer);
    }
  }
}
