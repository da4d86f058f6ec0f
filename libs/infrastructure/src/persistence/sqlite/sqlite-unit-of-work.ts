import { type TransactionalPorts, UnitOfWork } from '@svc/application';
import { type AnalyticsEvent, DatabaseUnavailableError, type IdempotencyClaim, type WebhookEvent } from '@svc/domain';
import type { Statement } from 'better-sqlite3';
import { type FieldEventDialect, type TransactionSql, claimDigestOf, eventsInsert } from '../typeorm/field-event-writes';
import { type OutboxBell, type OutboxWrites } from '../typeorm/outbox';
import { refusedOutright } from '../typeorm/repositories/sql-analytics-event.repository';
import { type SqliteAnalyticsEventRepository } from './sqlite-analytics-event.repository';
import { type SqliteStatements } from './sqlite-statements';

/** One write of the work, with what its port answered the work. */
type Write =
  | {
      readonly kind: 'consume';
      readonly event: AnalyticsEvent;
      readonly cost: number;
      readonly limit: number | null;
      readonly answered: number | null;
    }
  | { readonly kind: 'notice'; readonly event: WebhookEvent; readonly answered: boolean }
  /** The counter read for a consumption (CounterInTransaction.hold): it must still hold `answered`. */
  | { readonly kind: 'hold'; readonly licenseId: string; readonly period: string; readonly answered: number }
  | { readonly kind: 'add'; readonly licenseId: string; readonly period: string; readonly units: number }
  | { readonly kind: 'store'; readonly events: readonly AnalyticsEvent[] };

/** SQLite's side of the statements of events from the field (the apply step holds the database: no lock clauses). */
const SQLITE_FIELD_EVENTS: FieldEventDialect = {
  ignoringDuplicates: (sql) => sql.replace(/^INSERT INTO/, 'INSERT OR IGNORE INTO'),
  forUpdate: '',
  latestCommitted: '',
  integer: 'INTEGER',
  success: (ok) => (ok ? 1 : 0),
  instant: (at) => at.toISOString(),
};

/** The idempotency keys a work claimed (CONTRACT 22), applied first: each must still be free. */
interface Claims {
  licenseId: string | null;
  at: Date;
  readonly byKey: Map<string, IdempotencyClaim>;
}

/** The state the work decided from changed before its writes were applied: run it once more. */
class Outdated extends Error {}

/** How many times a unit runs its work before it gives up (each time another writer moved the counter it read first). */
const ATTEMPTS = 20;

/**
 * A unit of work on SQLite. The process has one better-sqlite3 connection,
 * so a transaction held open across the work's awaits would take in every
 * statement another request runs meanwhile (and roll it back with the
 * unit's). The unit therefore never leaves a transaction open across an
 * await: it runs the work once on reads (each port answers from the
 * database as it stands, plus the work's own earlier writes), then applies
 * the writes the work asked for in one synchronous BEGIN IMMEDIATE
 * better-sqlite3 transaction, in which nothing else can run, checking that
 * each write answers what its port answered the work. If one does not
 * (another writer consumed in between), that transaction is rolled back
 * whole and the work runs once more from the start, as UnitOfWork allows.
 * The units take their turn among the process's transactions
 * (SqliteStatements.inTurn), so they do not outdate each other.
 * The conditional consumption (SqliteAnalyticsEventRepository) keeps the
 * quota exact whatever the first run read.
 */
export class SqliteUnitOfWork extends UnitOfWork {
  private eventExists?: Statement;

  constructor(
    private readonly sqlite: SqliteStatements,
    private readonly events: SqliteAnalyticsEventRepository,
    private readonly writes: OutboxWrites,
    private readonly bell: OutboxBell,
  ) {
    super();
  }

  run<T>(work: (ports: TransactionalPorts) => Promise<T>): Promise<T> {
    return this.sqlite.inTurn(() => this.runNow(work));
  }

  private async runNow<T>(work: (ports: TransactionalPorts) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const writes: Write[] = [];
      const claims: Claims = { licenseId: null, at: new Date(0), byKey: new Map() };
      const value = await work(this.planning(writes, claims));
      try {
        const recorded = this.apply(writes, claims);
        if (recorded > 0) this.bell.ring();
        return value;
      } catch (error) {
        if (!(error instanceof Outdated)) throw error;
        if (attempt === ATTEMPTS) throw new DatabaseUnavailableError(1, { cause: error });
      }
    }
  }

  /** Ports that answer from the database as it stands (and the work's earlier writes), writing nothing: each write is noted. */
  private planning(writes: Write[], claims: Claims): TransactionalPorts {
    const counters = new Map<string, number>();
    const recorded = new Set<string>();
    const db = this.sqlite.database;
    const read: TransactionSql = {
      write: () => Promise.reject(new Error('a planning port never writes')),
      rows: async <Row>(sql: string, params: readonly unknown[]) => db.prepare(sql).all(...params) as Row[],
    };
    const usedIn = (licenseId: string, period: string) => counters.get(`${licenseId}\n${period}`) ?? this.events.usedNow(licenseId, period);
    return {
      usage: {
        usedIn: async (licenseId, period) => usedIn(licenseId, period),
        hold: async (licenseId, period) => {
          const answered = usedIn(licenseId, period);
          writes.push({ kind: 'hold', licenseId, period, answered });
          return answered;
        },
        add: async (licenseId, period, units) => {
          counters.set(`${licenseId}\n${period}`, usedIn(licenseId, period) + units);
          writes.push({ kind: 'add', licenseId, period, units });
        },
      },
      idempotencyKeys: {
        claim: async (licenseId, asked, at) => {
          const held = await read.rows<{ idempotency_key: string; event_id: string; reported_digest: string }>(
            `SELECT idempotency_key, event_id, reported_digest FROM idempotency_keys
              WHERE license_id = ? AND idempotency_key IN (${asked.map(() => '?').join(', ')})`,
            [licenseId, ...asked.map((c) => c.key)],
          );
          const byKey = new Map(held.map((row) => [row.idempotency_key, row]));
          claims.licenseId = licenseId;
          claims.at = at;
          return asked.map((claim) => {
            const holder = byKey.get(claim.key);
            if (holder) return { eventId: holder.event_id, sameFields: holder.reported_digest === claimDigestOf(claim.reportedFields) };
            claims.byKey.set(claim.key, claim);
            return null;
          });
        },
        release: async (_licenseId, keys) => {
          for (const key of keys) claims.byKey.delete(key);
        },
      },
      events: {
        storeAll: async (events) => {
          writes.push({ kind: 'store', events });
        },
        appendConsuming: async (event, cost, limit) => {
          const counter = `${event.licenseId}\n${event.period}`;
          const used = counters.get(counter) ?? this.events.usedNow(event.licenseId, event.period);
          const total = refusedOutright(cost, limit) || (limit !== null && used + cost > limit) ? null : used + cost;
          if (total !== null) counters.set(counter, total);
          writes.push({ kind: 'consume', event, cost, limit, answered: total });
          return total;
        },
      },
      outbox: {
        recordOnce: async (event) => {
          this.eventExists ??= this.sqlite.database.prepare('SELECT 1 FROM webhook_events WHERE id = ?');
          const answered = !recorded.has(event.id) && this.eventExists.get(event.id) === undefined;
          recorded.add(event.id);
          writes.push({ kind: 'notice', event, answered });
          return answered;
        },
      },
    };
  }

  /** The writes in one synchronous transaction (a savepoint inside one already open): the notices recorded. */
  private apply(writes: readonly Write[], claims: Claims): number {
    if (writes.length === 0 && claims.byKey.size === 0) return 0;
    const db = this.sqlite.database;
    const transaction = db.transaction((): number => {
      let recorded = 0;
      if (claims.licenseId !== null && claims.byKey.size > 0) {
        const rows = [...claims.byKey.values()];
        const inserted = this.sqlite.runWrite(
          `INSERT OR IGNORE INTO idempotency_keys (license_id, idempotency_key, event_id, reported_digest, claimed_at) VALUES ${rows
            .map(() => '(?, ?, ?, ?, ?)')
            .join(', ')}`,
          rows.flatMap((c) => [claims.licenseId, c.key, c.eventId, claimDigestOf(c.reportedFields), claims.at.toISOString()]),
        );
        if (inserted !== rows.length) throw new Outdated();
      }
      for (const write of writes) {
        if (write.kind === 'hold') {
          if (this.events.usedNow(write.licenseId, write.period) !== write.answered) throw new Outdated();
        } else if (write.kind === 'add') {
          db.prepare('INSERT OR IGNORE INTO usage_counters (license_id, period, used) VALUES (?, ?, 0)').run(write.licenseId, write.period);
          db.prepare('UPDATE usage_counters SET used = used + ? WHERE license_id = ? AND period = ?').run(
            write.units,
            write.licenseId,
            write.period,
          );
        } else if (write.kind === 'store') {
          const { sql, params } = eventsInsert(write.events, SQLITE_FIELD_EVENTS);
          this.sqlite.runWrite(sql, params);
        } else if (write.kind === 'consume') {
          if (this.events.appendInOpenTransaction(write.event, write.cost, write.limit) !== write.answered) throw new Outdated();
        } else {
          const { sql, params } = this.writes.eventInsertIgnoring(write.event);
          const written = this.sqlite.runWrite(sql, params);
          if ((written === 1) !== write.answered) throw new Outdated();
          recorded += written;
        }
      }
      return recorded;
    });
    return transaction.immediate();
  }
}
