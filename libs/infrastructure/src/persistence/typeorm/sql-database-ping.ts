import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DATABASE_PING_TIMEOUT_MS, DatabasePing } from '@svc/application';
import { PreparedStatement, SqlStatements } from './sql-statements';

/**
 * Whether a SQL database answers `SELECT 1` within the time limit. The
 * statement is prepared once (on a database server it waits for a pool
 * connection like any query, and the limit covers that wait). It replaced
 * @nestjs/terminus's TypeORM ping, which resolved its packages and the data
 * source and built a query runner on every call, several times the CPU of
 * the whole answer of the benchmark's ceiling.
 */
@Injectable()
export class SqlDatabasePing extends DatabasePing {
  private readonly ping: PreparedStatement;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    statements: SqlStatements,
  ) {
    super();
    this.ping = statements.prepare('ping', 'SELECT 1 AS up');
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
