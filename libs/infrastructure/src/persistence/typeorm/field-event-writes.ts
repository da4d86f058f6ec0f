import { createHash } from 'node:crypto';
import { type CounterInTransaction, type EventsInTransaction } from '@svc/application';
import { type AnalyticsEvent, type IdempotencyClaim, type IdempotencyHolder, IdempotencyKeys } from '@svc/domain';
import { EVENT_COLUMNS, USED_IN_PERIOD, eventValues } from './portable-sql';

/** Statements run in a unit of work's transaction, on its connection, with `?` placeholders. */
export interface TransactionSql {
  /** Runs a write: the rows it changed. */
  write(sql: string, params: readonly unknown[]): Promise<number>;
  rows<Row>(sql: string, params: readonly unknown[]): Promise<Row[]>;
}

/** What differs between the databases in these statements. */
export interface FieldEventDialect {
  /** An `INSERT … VALUES …` that skips rows whose primary key exists (INSERT OR IGNORE, ON CONFLICT DO NOTHING, INSERT IGNORE). */
  ignoringDuplicates(insertSql: string): string;
  /** The clause a read takes to lock its rows until the transaction ends (`''` where the transaction holds the database). */
  readonly forUpdate: string;
  /** The clause a read takes to see what other transactions committed since this one began (`''` where every statement does). */
  readonly latestCommitted: string;
  /** The type a bound number is cast to for integer arithmetic (mysql2 binds a number as DOUBLE). */
  readonly integer: string;
  /** How the driver takes a boolean and an instant. */
  readonly success: (ok: boolean) => unknown;
  readonly instant: (at: Date) => unknown;
}

/**
 * Thrown by a consumption whose period counter does not exist yet, on a
 * database that must open it outside the transaction (MySQL: inserting it
 * inside deadlocks when several transactions are the license's first use in
 * the period): the unit of work rolls back, opens the counter and runs the
 * work once more.
 */
export class CounterMissing extends Error {
  constructor(
    readonly licenseId: string,
    readonly period: string,
  ) {
    super('the period counter does not exist yet');
  }
}

/** A key's claim as stored: SHA-256 of what was reported, so that metadata is not kept twice. */
export function claimDigestOf(reportedFields: string): string {
  return createHash('sha256').update(reportedFields).digest('hex');
}

/**
 * Idempotency keys in `idempotency_keys`, whose primary key (license_id,
 * idempotency_key) makes each claim once: a multi-row insert that skips the
 * keys held (waiting out a transaction that holds one uncommitted); when it
 * skipped any, one read of every key's holder (a key whose holder is this
 * claim's event was got now).
 */
export class SqlIdempotencyKeys extends IdempotencyKeys {
  constructor(
    private readonly sql: TransactionSql,
    private readonly dialect: FieldEventDialect,
  ) {
    super();
  }

  async claim(licenseId: string, claims: readonly IdempotencyClaim[], at: Date): Promise<(IdempotencyHolder | null)[]> {
    // in key order, so that units claiming the same keys wait on them in one order and never on each other
    const sorted = [...claims].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const inserted = await this.sql.write(
      this.dialect.ignoringDuplicates(
        `INSERT INTO idempotency_keys (license_id, idempotency_key, event_id, reported_digest, claimed_at) VALUES ${sorted
          .map(() => '(?, ?, ?, ?, ?)')
          .join(', ')}`,
      ),
      sorted.flatMap((c) => [licenseId, c.key, c.eventId, claimDigestOf(c.reportedFields), this.dialect.instant(at)]),
    );
    if (inserted === claims.length) return claims.map(() => null);
    const held = await this.sql.rows<{ idempotency_key: string; event_id: string; reported_digest: string }>(
      `SELECT idempotency_key, event_id, reported_digest FROM idempotency_keys
        WHERE license_id = ? AND idempotency_key IN (${claims.map(() => '?').join(', ')})${this.dialect.latestCommitted}`,
      [licenseId, ...claims.map((c) => c.key)],
    );
    const byKey = new Map(held.map((row) => [row.idempotency_key, row]));
    return claims.map((claim) => {
      const holder = byKey.get(claim.key);
      if (!holder) throw new Error('an idempotency key was neither claimed nor found held');
      if (holder.event_id === claim.eventId) return null;
      return { eventId: holder.event_id, sameFields: holder.reported_digest === claimDigestOf(claim.reportedFields) };
    });
  }

  async release(licenseId: string, keys: readonly string[]): Promise<void> {
    await this.sql.write(`DELETE FROM idempotency_keys WHERE license_id = ? AND idempotency_key IN (${keys.map(() => '?').join(', ')})`, [
      licenseId,
      ...keys,
    ]);
  }
}

/**
 * A license's counter in a unit of work: held by a locking read (the
 * transaction keeps the row until it ends; SQLite's unit holds the whole
 * database), then added to. Where the counter may be opened inside the
 * transaction it is (a skipped duplicate when it exists); elsewhere a
 * missing counter is CounterMissing.
 */
export class SqlCounter implements CounterInTransaction {
  constructor(
    private readonly sql: TransactionSql,
    private readonly dialect: FieldEventDialect,
    private readonly opensCounterInside: boolean,
  ) {}

  async usedIn(licenseId: string, period: string): Promise<number> {
    const [row] = await this.sql.rows<{ used: string | number }>(USED_IN_PERIOD, [licenseId, period]);
    return row === undefined ? 0 : Number(row.used);
  }

  async hold(licenseId: string, period: string): Promise<number> {
    const locked = async () =>
      (await this.sql.rows<{ used: string | number }>(`${USED_IN_PERIOD}${this.dialect.forUpdate}`, [licenseId, period]))[0];
    let row = await locked();
    if (row === undefined) {
      // the license's first consumption in the period
      if (!this.opensCounterInside) throw new CounterMissing(licenseId, period);
      await this.sql.write(this.dialect.ignoringDuplicates('INSERT INTO usage_counters (license_id, period, used) VALUES (?, ?, 0)'), [
        licenseId,
        period,
      ]);
      row = await locked();
    }
    if (row === undefined) throw new CounterMissing(licenseId, period);
    return Number(row.used);
  }

  async add(licenseId: string, period: string, units: number): Promise<void> {
    await this.sql.write(`UPDATE usage_counters SET used = used + CAST(? AS ${this.dialect.integer}) WHERE license_id = ? AND period = ?`, [
      units,
      licenseId,
      period,
    ]);
  }
}

/** The one multi-row insert of events whose units were counted already. */
export function eventsInsert(events: readonly AnalyticsEvent[], dialect: FieldEventDialect): { sql: string; params: unknown[] } {
  const row = `(${EVENT_COLUMNS.split(',')
    .map(() => '?')
    .join(', ')})`;
  return {
    sql: `INSERT INTO analytics_events (${EVENT_COLUMNS}) VALUES ${events.map(() => row).join(', ')}`,
    params: events.flatMap((event) => eventValues(event, dialect)),
  };
}

/** Events whose units were counted already (SqlCounter), stored in one multi-row insert. */
export class SqlEventsStore implements Pick<EventsInTransaction, 'storeAll'> {
  constructor(
    private readonly sql: TransactionSql,
    private readonly dialect: FieldEventDialect,
  ) {}

  async storeAll(events: readonly AnalyticsEvent[]): Promise<void> {
    if (events.length === 0) return;
    const { sql, params } = eventsInsert(events, this.dialect);
    await this.sql.write(sql, params);
  }
}
