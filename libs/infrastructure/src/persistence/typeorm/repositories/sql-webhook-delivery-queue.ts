import {
  type AttemptRecord,
  type AuditEntry,
  type ClaimedDelivery,
  type DeliveryFilter,
  type OutboxDepth,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEvent,
  type WebhookEventType,
  WebhookRepository,
  WEBHOOK_EVENT_TYPES,
  keyExpiringEventId,
} from '@svc/domain';
import { type DataSource } from 'typeorm';
import { type AuditLines } from '../../../audit/logging-audit-log';
import { type SecretsCipher } from '../../../crypto/secrets-cipher';
import { WebhookMapper } from '../mappers/webhook.mapper';
import { type OutboxBell, OutboxWrites } from '../outbox';
import { RecordHydrator } from '../record-hydrator';
import { RecordValues } from '../record-values';
import { ApiKeyRecord } from '../records/api-key.record';
import { WebhookDeliveryRecord, WebhookEndpointRecord, WebhookEventRecord } from '../records/webhook.records';
import { type PreparedStatement, type SqlStatements, type WriteScript } from '../sql-statements';

/** The lease a claim takes is the claimer's; an attempt is written only while it still holds it. */
const CLAIMABLE = "status = 'pending' AND next_attempt_at <= ? AND (lease_expires_at IS NULL OR lease_expires_at <= ?)";

/**
 * How many due deliveries a claim looks at (the earliest due, of endpoints
 * not skipped) to take the first of each endpoint from. An endpoint with
 * more due than this hides the others for one claim only: the caller claims
 * again while it has free slots, and skips that endpoint once its slots are full.
 */
export const CLAIM_CANDIDATES = 100;

/** The deliveries a claim takes from its candidates (earliest due first): the first of each endpoint, at most `limit`. */
export function firstOfEachEndpoint(candidates: ReadonlyArray<{ id: string; endpoint_id: string }>, limit: number): string[] {
  const endpoints = new Set<string>();
  const taken: string[] = [];
  for (const candidate of candidates) {
    if (taken.length >= limit) break;
    if (endpoints.has(candidate.endpoint_id)) continue;
    endpoints.add(candidate.endpoint_id);
    taken.push(candidate.id);
  }
  return taken;
}

/**
 * Webhooks on a SQL database (CONTRACT 20): endpoints and their audit
 * entries in one transaction, the outbox fanned out into deliveries by one
 * instance per event (a conditional UPDATE decides), and each attempt
 * written only by the holder of its lease. The claim is each database's
 * own (claimDue): `FOR UPDATE SKIP LOCKED` where there is one.
 */
export abstract class SqlWebhookRepository extends WebhookRepository {
  protected readonly endpointRows: RecordHydrator<WebhookEndpointRecord>;
  protected readonly deliveryRows: RecordHydrator<WebhookDeliveryRecord>;
  private readonly eventRows: RecordHydrator<WebhookEventRecord>;
  private readonly keyRows: RecordHydrator<ApiKeyRecord>;
  private readonly endpointValues: RecordValues<WebhookEndpointRecord>;
  private readonly deliveryValues: RecordValues<WebhookDeliveryRecord>;
  private readonly outbox: OutboxWrites;
  private readonly prepared = new Map<string, PreparedStatement>();

  constructor(
    dataSource: DataSource,
    protected readonly statements: SqlStatements,
    private readonly lines: AuditLines,
    private readonly bell: OutboxBell,
    /** Seals and opens the endpoints' secrets (encrypted at rest with SECRETS_KEY). */
    private readonly cipher: SecretsCipher,
  ) {
    super();
    this.endpointRows = new RecordHydrator(dataSource, WebhookEndpointRecord);
    this.deliveryRows = new RecordHydrator(dataSource, WebhookDeliveryRecord);
    this.eventRows = new RecordHydrator(dataSource, WebhookEventRecord);
    this.keyRows = new RecordHydrator(dataSource, ApiKeyRecord);
    this.endpointValues = new RecordValues(dataSource, WebhookEndpointRecord);
    this.deliveryValues = new RecordValues(dataSource, WebhookDeliveryRecord);
    this.outbox = new OutboxWrites(dataSource, statements);
  }

  protected statement(name: string, sql: string): PreparedStatement {
    let found = this.prepared.get(name);
    if (!found) this.prepared.set(name, (found = this.statements.prepare(name, sql)));
    return found;
  }

  /** An instant as the driver writes it into a delivery's instant columns. */
  protected instant(at: Date): unknown {
    return this.deliveryRows.bind('createdAt', at);
  }

  async createEndpoint(endpoint: WebhookEndpoint, audit: AuditEntry): Promise<void> {
    const values = this.endpointValues;
    const record = WebhookMapper.endpointToRecord(endpoint, endpoint.updatedAt, this.cipher);
    const outbox = this.outbox;
    await this.audited([audit], function* () {
      yield { sql: values.insertSql(), params: values.of(record) };
      yield* outbox.audit([audit]);
      return true;
    });
  }

  async listEndpoints(): Promise<WebhookEndpoint[]> {
    const rows = await this.statement(
      'webhook_endpoints_all',
      `SELECT ${this.endpointRows.selectList('e')} FROM webhook_endpoints e ORDER BY e.created_at, e.id`,
    ).all([]);
    return rows.map((row) => WebhookMapper.endpointToDomain(this.endpointRows.hydrate(row), this.cipher));
  }

  async findEndpoint(id: string): Promise<WebhookEndpoint | null> {
    const row = await this.statement(
      'webhook_endpoint_by_id',
      `SELECT ${this.endpointRows.selectList('e')} FROM webhook_endpoints e WHERE e.id = ?`,
    ).first([id]);
    return row ? WebhookMapper.endpointToDomain(this.endpointRows.hydrate(row), this.cipher) : null;
  }

  async updateEndpoint(endpoint: WebhookEndpoint, audit: AuditEntry): Promise<boolean> {
    const record = WebhookMapper.endpointToRecord(endpoint, endpoint.updatedAt, this.cipher);
    const { id, createdAt, ...changed } = record;
    void createdAt;
    const set = this.endpointValues.assignments(changed);
    const outbox = this.outbox;
    // an endpoint disabled before keeps the instant it was disabled at
    const disabledAt = endpoint.enabled ? 'disabled_at = ?' : 'disabled_at = COALESCE(disabled_at, ?)';
    const sql = `UPDATE webhook_endpoints SET ${set.sql.replace('disabled_at = ?', disabledAt)} WHERE id = ?`;
    return this.audited([audit], function* () {
      if ((yield { sql, params: [...set.params, id] }) !== 1) return false;
      yield* outbox.audit([audit]);
      return true;
    });
  }

  async deleteEndpoint(id: string, audit: AuditEntry): Promise<boolean> {
    const outbox = this.outbox;
    return this.audited([audit], function* () {
      if ((yield { sql: 'DELETE FROM webhook_endpoints WHERE id = ?', params: [id] }) !== 1) return false;
      yield { sql: 'DELETE FROM webhook_deliveries WHERE endpoint_id = ?', params: [id] };
      yield* outbox.audit([audit]);
      return true;
    });
  }

  async recordEvents(events: readonly WebhookEvent[]): Promise<void> {
    if (events.length === 0) return;
    const outbox = this.outbox;
    await this.statements.writeTogether(function* () {
      yield* outbox.events(events);
    });
    this.bell.ring();
  }

  async recordOnce(event: WebhookEvent): Promise<boolean> {
    const outbox = this.outbox;
    const recorded = await this.statements.writeTogether(function* () {
      return yield* outbox.eventOnce(event);
    });
    if (recorded) this.bell.ring();
    return recorded;
  }

  async keysExpiringBetween(
    from: Date,
    until: Date,
    limit: number,
  ): Promise<Array<{ id: string; prefix: string; licenseId: string; expiresAt: Date }>> {
    const rows = await this.statement(
      `webhook_keys_expiring_${limit}`,
      `SELECT k.id AS id, k.display_prefix AS prefix, k.license_id AS license_id, k.expires_at AS expires_at FROM api_keys k
        WHERE k.revoked_at IS NULL AND k.rotated_to IS NULL AND k.expires_at > ? AND k.expires_at <= ?
          AND NOT EXISTS (SELECT 1 FROM webhook_events e WHERE e.id = CONCAT('${keyExpiringEventId('')}', k.id))
        ORDER BY k.expires_at LIMIT ${Math.trunc(limit)}`,
    ).all([this.keyRows.bind('expiresAt', from), this.keyRows.bind('expiresAt', until)]);
    return rows.map((row) => {
      const key = this.keyRows.hydrate({ id: row.id, expires_at: row.expires_at });
      return { id: String(row.id), prefix: String(row.prefix), licenseId: String(row.license_id), expiresAt: key.expiresAt };
    });
  }

  async fanOut(
    limit: number,
    deliveriesOf: (event: WebhookEvent, endpoints: readonly WebhookEndpoint[]) => WebhookDelivery[],
    at: Date,
  ): Promise<number> {
    const rows = await this.statement(
      `webhook_events_pending_${limit}`,
      `SELECT ${this.eventRows.selectList('e')} FROM webhook_events e WHERE e.fanned_out_at IS NULL ORDER BY e.occurred_at, e.id LIMIT ${Math.trunc(limit)}`,
    ).all([]);
    if (rows.length === 0) return 0;
    const events = rows.map((row) => WebhookMapper.eventToDomain(this.eventRows.hydrate(row)));
    const endpoints = (await this.listEndpoints()).filter((e) => e.enabled);
    const deliveryValues = this.deliveryValues;
    const fannedAt = this.eventRows.bind('fannedOutAt', at);
    const fanned = await this.statements.writeTogether(function* () {
      let count = 0;
      for (const event of events) {
        const claimed = yield {
          sql: 'UPDATE webhook_events SET fanned_out_at = ? WHERE id = ? AND fanned_out_at IS NULL',
          params: [fannedAt, event.id],
        };
        if (claimed !== 1) continue;
        count += 1;
        for (const delivery of deliveriesOf(event, endpoints)) {
          yield { sql: deliveryValues.insertSql(), params: deliveryValues.of(WebhookMapper.deliveryToRecord(delivery)) };
        }
      }
      return count;
    });
    return fanned;
  }

  async insertDelivery(delivery: WebhookDelivery, audit: AuditEntry): Promise<void> {
    const values = this.deliveryValues;
    const outbox = this.outbox;
    await this.audited([audit], function* () {
      yield { sql: values.insertSql(), params: values.of(WebhookMapper.deliveryToRecord(delivery)) };
      yield* outbox.audit([audit]);
      return true;
    });
    this.bell.ring();
  }

  /** The claimed rows' deliveries with their endpoints (a claimed delivery whose endpoint is gone comes without one: `null`). */
  protected async withEndpoints(
    rows: readonly Record<string, unknown>[],
  ): Promise<Array<{ delivery: WebhookDelivery; endpoint: WebhookEndpoint | null }>> {
    const deliveries = rows.map((row) => WebhookMapper.deliveryToDomain(this.deliveryRows.hydrate(row)));
    const endpoints = new Map<string, WebhookEndpoint | null>();
    for (const d of deliveries) if (!endpoints.has(d.endpointId)) endpoints.set(d.endpointId, await this.findEndpoint(d.endpointId));
    return deliveries.map((delivery) => ({ delivery, endpoint: endpoints.get(delivery.endpointId) ?? null }));
  }

  /** The deliveries the claim took (`claimDue`); those whose endpoint is gone are failed at once, not attempted. */
  protected async claimed(owner: string, rows: readonly Record<string, unknown>[], at: Date): Promise<ClaimedDelivery[]> {
    const out: ClaimedDelivery[] = [];
    for (const { delivery, endpoint } of await this.withEndpoints(rows)) {
      if (endpoint === null) {
        await this.recordAttempt({
          deliveryId: delivery.id,
          leaseOwner: owner,
          at,
          status: 'failed',
          nextAttemptAt: null,
          statusCode: null,
          error: 'the endpoint is gone',
          succeeded: false,
          disable: null,
          countsAsAttempt: false,
        });
      } else {
        out.push({ delivery, endpoint });
      }
    }
    return out;
  }

  /** The claimable rows' condition and its parameters at `at`. */
  protected claimable(at: Date): { sql: string; params: unknown[] } {
    const now = this.instant(at);
    return { sql: CLAIMABLE, params: [now, now] };
  }

  async recordAttempt(attempt: AttemptRecord): Promise<boolean> {
    const values = this.deliveryValues;
    const endpointValues = this.endpointValues;
    const outbox = this.outbox;
    const set = values.assignments({
      status: attempt.status,
      nextAttemptAt: attempt.nextAttemptAt,
      lastAttemptAt: attempt.countsAsAttempt === false ? undefined : attempt.at,
      lastStatusCode: attempt.statusCode,
      lastError: attempt.error,
    });
    // assignments leaves out undefined values; null ones are written
    const nulls = ['next_attempt_at', 'last_status_code', 'last_error'].filter((c) => !set.sql.includes(`${c} = ?`));
    const attempts = attempt.countsAsAttempt === false ? '' : ', attempts = attempts + 1';
    const update = `UPDATE webhook_deliveries SET ${set.sql}${nulls.map((c) => `, ${c} = NULL`).join('')}${attempts}, lease_owner = NULL, lease_expires_at = NULL WHERE id = ? AND lease_owner = ?`;
    const at = endpointValues.assignments({ failingSince: attempt.at }).params[0];
    const audit = attempt.disable?.audit;
    const disable = attempt.disable;
    const recorded = await this.audited(audit ? [audit] : [], function* () {
      if ((yield { sql: update, params: [...set.params, attempt.deliveryId, attempt.leaseOwner] }) !== 1) return false;
      const endpointOf = '(SELECT endpoint_id FROM webhook_deliveries WHERE id = ?)';
      if (attempt.countsAsAttempt === false) return true;
      if (attempt.succeeded) {
        yield { sql: `UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ${endpointOf}`, params: [attempt.deliveryId] };
      } else {
        yield {
          sql: `UPDATE webhook_endpoints SET failing_since = ? WHERE id = ${endpointOf} AND failing_since IS NULL`,
          params: [at, attempt.deliveryId],
        };
      }
      if (disable && audit) {
        const disabled = yield {
          sql: `UPDATE webhook_endpoints SET disabled_at = ?, disabled_reason = ?, updated_at = ? WHERE id = ${endpointOf} AND disabled_at IS NULL`,
          params: [at, disable.reason, at, attempt.deliveryId],
        };
        if (disabled === 1) yield* outbox.audit([audit]);
      }
      return true;
    });
    return recorded;
  }

  async listDeliveries(filter: DeliveryFilter): Promise<WebhookDelivery[]> {
    const where = ['d.endpoint_id = ?'];
    const params: unknown[] = [filter.endpointId];
    if (filter.status !== undefined) {
      where.push('d.status = ?');
      params.push(filter.status);
    }
    if (filter.after !== undefined) {
      const at = this.instant(filter.after.createdAt);
      where.push('(d.created_at < ? OR (d.created_at = ? AND d.id < ?))');
      params.push(at, at, filter.after.id);
    }
    const limit = Math.trunc(filter.limit);
    const name = `webhook_deliveries_${filter.status === undefined ? 'any' : 'status'}_${filter.after === undefined ? 'first' : 'after'}_${limit}`;
    const rows = await this.statement(
      name,
      `SELECT ${this.deliveryRows.selectList('d')} FROM webhook_deliveries d WHERE ${where.join(' AND ')} ORDER BY d.created_at DESC, d.id DESC LIMIT ${limit}`,
    ).all(params);
    return rows.map((row) => WebhookMapper.deliveryToDomain(this.deliveryRows.hydrate(row)));
  }

  async findDelivery(endpointId: string, deliveryId: string): Promise<WebhookDelivery | null> {
    const row = await this.statement(
      'webhook_delivery_by_id',
      `SELECT ${this.deliveryRows.selectList('d')} FROM webhook_deliveries d WHERE d.id = ? AND d.endpoint_id = ?`,
    ).first([deliveryId, endpointId]);
    return row ? WebhookMapper.deliveryToDomain(this.deliveryRows.hydrate(row)) : null;
  }

  async retryDelivery(endpointId: string, deliveryId: string, at: Date, audit: AuditEntry): Promise<boolean> {
    const now = this.instant(at);
    const outbox = this.outbox;
    const retried = await this.audited([audit], function* () {
      const changed = yield {
        sql: "UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ?, lease_owner = NULL, lease_expires_at = NULL WHERE id = ? AND endpoint_id = ?",
        params: [now, deliveryId, endpointId],
      };
      if (changed !== 1) return false;
      yield* outbox.audit([audit]);
      return true;
    });
    if (retried) this.bell.ring();
    return retried;
  }

  async depth(): Promise<OutboxDepth> {
    const [events, deliveries] = await Promise.all([
      this.statement(
        'webhook_events_depth',
        'SELECT COUNT(*) AS n, MIN(occurred_at) AS oldest FROM webhook_events WHERE fanned_out_at IS NULL',
      ).first([]),
      this.statement(
        'webhook_deliveries_depth',
        "SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM webhook_deliveries WHERE status = 'pending'",
      ).first([]),
    ]);
    const oldestOf = (row: Record<string, unknown> | undefined, hydrate: (v: unknown) => Date | null) =>
      row?.oldest === null || row?.oldest === undefined ? null : hydrate(row.oldest);
    const oldest = [
      oldestOf(events, (v) => this.eventRows.hydrate({ occurred_at: v }).occurredAt),
      oldestOf(deliveries, (v) => this.deliveryRows.hydrate({ created_at: v }).createdAt),
    ].filter((d): d is Date => d instanceof Date && !Number.isNaN(d.getTime()));
    return {
      pending: Number(events?.n ?? 0) + Number(deliveries?.n ?? 0),
      oldest: oldest.length === 0 ? null : new Date(Math.min(...oldest.map((d) => d.getTime()))),
    };
  }

  async pruneDeliveries(endedBefore: Date, limit: number): Promise<number> {
    const before = this.instant(endedBefore);
    return this.boundedDelete(
      'webhook_deliveries',
      "status IN ('succeeded', 'failed') AND created_at < ? AND (last_attempt_at IS NULL OR last_attempt_at < ?)",
      [before, before],
      limit,
    );
  }

  async pruneEvents(fannedOutBefore: Readonly<Record<WebhookEventType, Date>>, limit: number): Promise<number> {
    const latest = new Date(Math.max(...WEBHOOK_EVENT_TYPES.map((type) => fannedOutBefore[type].getTime())));
    const at = (d: Date) => this.eventRows.bind('fannedOutAt', d);
    // the first condition is the index's range (ix_webhook_events_pending); each type then has its own instant
    const where = `fanned_out_at < ? AND (${WEBHOOK_EVENT_TYPES.map(() => '(type = ? AND fanned_out_at < ?)').join(' OR ')})
      AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = webhook_events.id)`;
    return this.boundedDelete(
      'webhook_events',
      where,
      [at(latest), ...WEBHOOK_EVENT_TYPES.flatMap((type) => [type, at(fannedOutBefore[type])])],
      limit,
    );
  }

  /** Deletes up to `limit` rows of `table` where `where` holds, in one statement; answers how many. */
  private async boundedDelete(table: string, where: string, params: readonly unknown[], limit: number): Promise<number> {
    const write = { sql: this.boundedDeleteSql(table, where, Math.trunc(limit)), params };
    return this.statements.writeTogether(function* (): WriteScript<number> {
      return yield write;
    });
  }

  /** A DELETE of at most `limit` rows of `table` where `where` holds. */
  protected boundedDeleteSql(table: string, where: string, limit: number): string {
    return `DELETE FROM ${table} WHERE id IN (SELECT id FROM ${table} WHERE ${where} LIMIT ${limit})`;
  }

  /** A change with its audit entries in one transaction; the entries logged once it is committed (when it happened). */
  private async audited(audit: readonly AuditEntry[], script: () => WriteScript<boolean>): Promise<boolean> {
    const changed = await this.statements.writeTogether(script);
    if (changed) for (const entry of audit) this.lines.stored(entry);
    return changed;
  }
}
