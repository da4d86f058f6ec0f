import { type AuditEntry, type WebhookEndpoint, WebhookEndpointRepository } from '@svc/domain';
import { type DataSource } from 'typeorm';
import { type SecretsCipher } from '../../../crypto/secrets-cipher';
import { WebhookMapper } from '../mappers/webhook.mapper';
import { OutboxWrites } from '../outbox';
import { RecordHydrator } from '../record-hydrator';
import { RecordValues } from '../record-values';
import { WebhookEndpointRecord } from '../records/webhook.records';
import { type WebhookStatements } from './webhook-statements';

/** Webhook endpoints on a SQL database (CONTRACT 20): each change and its audit entry in one transaction, secrets sealed at rest. */
export class SqlWebhookEndpointRepository extends WebhookEndpointRepository {
  private readonly rows: RecordHydrator<WebhookEndpointRecord>;
  private readonly values: RecordValues<WebhookEndpointRecord>;
  private readonly outbox: OutboxWrites;

  constructor(
    dataSource: DataSource,
    private readonly sql: WebhookStatements,
    /** Seals and opens the endpoints' secrets (encrypted at rest with SECRETS_KEY). */
    private readonly cipher: SecretsCipher,
  ) {
    super();
    this.rows = new RecordHydrator(dataSource, WebhookEndpointRecord);
    this.values = new RecordValues(dataSource, WebhookEndpointRecord);
    this.outbox = new OutboxWrites(dataSource, sql.statements);
  }

  async create(endpoint: WebhookEndpoint, audit: AuditEntry): Promise<void> {
    const values = this.values;
    const record = WebhookMapper.endpointToRecord(endpoint, endpoint.updatedAt, this.cipher);
    const outbox = this.outbox;
    await this.sql.audited([audit], function* () {
      yield { sql: values.insertSql(), params: values.of(record) };
      yield* outbox.audit([audit]);
      return true;
    });
  }

  async list(): Promise<WebhookEndpoint[]> {
    const rows = await this.sql
      .statement('webhook_endpoints_all', `SELECT ${this.rows.selectList('e')} FROM webhook_endpoints e ORDER BY e.created_at, e.id`)
      .all([]);
    return rows.map((row) => WebhookMapper.endpointToDomain(this.rows.hydrate(row), this.cipher));
  }

  async find(id: string): Promise<WebhookEndpoint | null> {
    const row = await this.sql
      .statement('webhook_endpoint_by_id', `SELECT ${this.rows.selectList('e')} FROM webhook_endpoints e WHERE e.id = ?`)
      .first([id]);
    return row ? WebhookMapper.endpointToDomain(this.rows.hydrate(row), this.cipher) : null;
  }

  async update(endpoint: WebhookEndpoint, audit: AuditEntry): Promise<boolean> {
    const record = WebhookMapper.endpointToRecord(endpoint, endpoint.updatedAt, this.cipher);
    const { id, createdAt, ...changed } = record;
    void createdAt;
    const set = this.values.assignments(changed);
    const outbox = this.outbox;
    // an endpoint disabled before keeps the instant it was disabled at
    const disabledAt = endpoint.enabled ? 'disabled_at = ?' : 'disabled_at = COALESCE(disabled_at, ?)';
    const sql = `UPDATE webhook_endpoints SET ${set.sql.replace('disabled_at = ?', disabledAt)} WHERE id = ?`;
    return this.sql.audited([audit], function* () {
      if ((yield { sql, params: [...set.params, id] }) !== 1) return false;
      yield* outbox.audit([audit]);
      return true;
    });
  }

  async delete(id: string, audit: AuditEntry): Promise<boolean> {
    const outbox = this.outbox;
    return this.sql.audited([audit], function* () {
      if ((yield { sql: 'DELETE FROM webhook_endpoints WHERE id = ?', params: [id] }) !== 1) return false;
      yield { sql: 'DELETE FROM webhook_deliveries WHERE endpoint_id = ?', params: [id] };
      yield* outbox.audit([audit]);
      return true;
    });
  }
}
