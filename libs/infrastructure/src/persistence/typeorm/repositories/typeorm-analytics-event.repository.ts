import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AnalyticsEvent, AnalyticsEventRepository, EVENT_TYPES, EventType, UsageBreakdown } from '@svc/domain';
import type { Database, Statement } from 'better-sqlite3';
import { DataSource } from 'typeorm';
import { PreparedQuery } from '../prepared-query';

const EVENT_COLUMNS =
  'id, key_id, environment, event_type, model_name, inference_type, duration_ms, success, error_message, metadata, period, received_at';
const EVENT_PLACEHOLDERS = EVENT_COLUMNS.split(',').map(() => '?').join(', ');

/**
 * Events and their quota consumption, atomically. On SQLite: one synchronous
 * better-sqlite3 transaction over prepared statements (nothing can interleave).
 * On PostgreSQL: one statement whose CTE consumes and inserts together, so a
 * refused consumption stores nothing. No read-then-write anywhere.
 */
@Injectable()
export class TypeOrmAnalyticsEventRepository extends AnalyticsEventRepository {
  private sqlite?: SqliteStatements;
  private postgres?: PostgresStatements;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    super();
  }

  async appendConsuming(event: AnalyticsEvent, cost: number, limit: number | null): Promise<number | null> {
    if (limit !== null && cost > limit) return null;
    return this.dataSource.options.type === 'postgres'
      ? this.appendConsumingPostgres(event, cost, limit)
      : this.sqliteStatements().appendConsuming(event, cost, limit);
  }

  async breakdown(keyId: string, period: string): Promise<UsageBreakdown> {
    const p = this.dataSource.options.type === 'postgres' ? ['$1', '$2'] : ['?', '?'];
    const where = `FROM analytics_events WHERE key_id = ${p[0]} AND period = ${p[1]}`;
    const [types, models, outcomes]: Array<Array<{ k: unknown; n: string | number }>> = await Promise.all([
      this.dataSource.query(`SELECT event_type AS k, COUNT(*) AS n ${where} GROUP BY event_type`, [keyId, period]),
      this.dataSource.query(`SELECT model_name AS k, COUNT(*) AS n ${where} AND model_name IS NOT NULL GROUP BY model_name ORDER BY model_name`, [keyId, period]),
      this.dataSource.query(`SELECT success AS k, COUNT(*) AS n ${where} GROUP BY success`, [keyId, period]),
    ]);
    const byEventType = Object.fromEntries(EVENT_TYPES.map((t) => [t, 0])) as Record<EventType, number>;
    for (const row of types) byEventType[row.k as EventType] = Number(row.n);
    const byModel: Record<string, number> = {};
    for (const row of models) byModel[String(row.k)] = Number(row.n);
    const byOutcome = { success: 0, failure: 0, unreported: 0 };
    for (const row of outcomes) {
      const outcome = row.k === null ? 'unreported' : row.k === true || row.k === 1 ? 'success' : 'failure';
      byOutcome[outcome] += Number(row.n);
    }
    return { byEventType, byModel, byOutcome };
  }

  private async appendConsumingPostgres(event: AnalyticsEvent, cost: number, limit: number | null): Promise<number | null> {
    this.postgres ??= new PostgresStatements(this.dataSource);
    const values = [
      event.id, event.keyId, event.environment, event.eventType, event.modelName, event.inferenceType, event.durationMs,
      event.success, event.errorMessage, event.metadata === null ? null : JSON.stringify(event.metadata), event.period, event.receivedAt,
    ];
    if (cost === 0) return Number((await this.postgres.appendFree.first(values))?.used ?? 0);
    const row =
      limit === null
        ? await this.postgres.appendConsumingUnlimited.first([...values, cost])
        : await this.postgres.appendConsuming.first([...values, cost, limit]);
    return row === undefined ? null : Number(row.used);
  }

  private sqliteStatements(): SqliteStatements {
    this.sqlite ??= new SqliteStatements((this.dataSource.driver as unknown as { databaseConnection: Database }).databaseConnection);
    return this.sqlite;
  }
}

/**
 * PostgreSQL only (written with `$n` placeholders). Prepared once (named
 * statements, see PreparedQuery); each is one statement whose CTE consumes
 * and inserts together. Parameters: the 12 event columns
 * (the key id is the 2nd, the period the 11th), then the cost, then the limit.
 */
class PostgresStatements {
  readonly appendFree: PreparedQuery<{ used: string }>;
  readonly appendConsuming: PreparedQuery<{ used: string }>;
  readonly appendConsumingUnlimited: PreparedQuery<{ used: string }>;

  constructor(dataSource: DataSource) {
    const insertValues = EVENT_COLUMNS.split(',').map((_, i) => `$${i + 1}`).join(', ');
    this.appendFree = new PreparedQuery(
      dataSource,
      'event_append_free',
      `WITH stored AS (INSERT INTO analytics_events (${EVENT_COLUMNS}) VALUES (${insertValues}) RETURNING 1)
       SELECT COALESCE((SELECT used FROM usage_counters WHERE key_id = $2 AND period = $11), 0) AS used,
              (SELECT COUNT(*) FROM stored) AS stored`,
    );
    const consuming = (guard: string) =>
      `WITH consumed AS (
         INSERT INTO usage_counters (key_id, period, used) VALUES ($2, $11, $13)
         ON CONFLICT (key_id, period) DO UPDATE SET used = usage_counters.used + excluded.used ${guard}
         RETURNING used),
       stored AS (
         INSERT INTO analytics_events (${EVENT_COLUMNS}) SELECT ${insertValues} FROM consumed RETURNING 1)
       SELECT used, (SELECT COUNT(*) FROM stored) AS stored FROM consumed`;
    this.appendConsuming = new PreparedQuery(dataSource, 'event_append_consuming', consuming('WHERE usage_counters.used + excluded.used <= $14'));
    this.appendConsumingUnlimited = new PreparedQuery(dataSource, 'event_append_consuming_unlimited', consuming(''));
  }
}

/** Prepared once; run inside one better-sqlite3 transaction per event. */
class SqliteStatements {
  private readonly consume: Statement;
  private readonly consumeUnlimited: Statement;
  private readonly used: Statement;
  private readonly insert: Statement;
  readonly appendConsuming: (event: AnalyticsEvent, cost: number, limit: number | null) => number | null;

  constructor(db: Database) {
    const upsert =
      'INSERT INTO usage_counters (key_id, period, used) VALUES (?, ?, ?) ' +
      'ON CONFLICT (key_id, period) DO UPDATE SET used = usage_counters.used + excluded.used';
    this.consume = db.prepare(`${upsert} WHERE usage_counters.used + excluded.used <= ? RETURNING used`);
    this.consumeUnlimited = db.prepare(`${upsert} RETURNING used`);
    this.used = db.prepare('SELECT used FROM usage_counters WHERE key_id = ? AND period = ?');
    this.insert = db.prepare(`INSERT INTO analytics_events (${EVENT_COLUMNS}) VALUES (${EVENT_PLACEHOLDERS})`);
    const transaction = db.transaction((event: AnalyticsEvent, cost: number, limit: number | null): number | null => {
      let used: number;
      if (cost > 0) {
        const row = (limit === null
          ? this.consumeUnlimited.get(event.keyId, event.period, cost)
          : this.consume.get(event.keyId, event.period, cost, limit)) as { used: number | bigint } | undefined;
        if (!row) return null;
        used = Number(row.used);
      } else {
        const row = this.used.get(event.keyId, event.period) as { used: number | bigint } | undefined;
        used = row ? Number(row.used) : 0;
      }
      this.insert.run(
        event.id, event.keyId, event.environment, event.eventType, event.modelName, event.inferenceType, event.durationMs,
        event.success === null ? null : event.success ? 1 : 0, event.errorMessage,
        event.metadata === null ? null : JSON.stringify(event.metadata), event.period, event.receivedAt.toISOString(),
      );
      return used;
    });
    // BEGIN IMMEDIATE: the write lock is taken (waiting out the busy timeout) before the first read. A deferred
    // transaction that read first could not upgrade once another process (the CLI) had committed meanwhile:
    // SQLite answers SQLITE_BUSY at once, without waiting, and the event would fail with a 503.
    this.appendConsuming = (event, cost, limit) => transaction.immediate(event, cost, limit);
  }
}
