import { type TransactionalPorts, UnitOfWork } from '@svc/application';
import { type AnalyticsEvent, DatabaseUnavailableError, type WebhookEvent } from '@svc/domain';
import type { Statement } from 'better-sqlite3';
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
  | { readonly kind: 'notice'; readonly event: WebhookEvent; readonly answered: boolean };

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
 * The units of this process take turns, so they do not outdate each other.
 * The conditional consumption (SqliteAnalyticsEventRepository) keeps the
 * quota exact whatever the first run read.
 */
export class SqliteUnitOfWork extends UnitOfWork {
  private turn: Promise<unknown> = Promise.resolve();
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
    const mine = this.turn.then(() => this.runNow(work));
    this.turn = mine.catch(() => undefined);
    return mine;
  }

  private async runNow<T>(work: (ports: TransactionalPorts) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const writes: Write[] = [];
      const value = await work(this.planning(writes));
      try {
        const recorded = this.apply(writes);
        if (recorded > 0) this.bell.ring();
        return value;
      } catch (error) {
        if (!(error instanceof Outdated)) throw error;
        if (attempt === ATTEMPTS) throw new DatabaseUnavailableError(1, { cause: error });
      }
    }
  }

  /** Ports that answer from the database as it stands (and the work's earlier writes), writing nothing: each write is noted. */
  private planning(writes: Write[]): TransactionalPorts {
    const counters = new Map<string, number>();
    const recorded = new Set<string>();
    return {
      events: {
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
  private apply(writes: readonly Write[]): number {
    if (writes.length === 0) return 0;
    const transaction = this.sqlite.database.transaction((): number => {
      let recorded = 0;
      for (const write of writes) {
        if (write.kind === 'consume') {
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
