import { type AuditEntry, type WebhookEndpoint, WebhookEndpointRepository } from '@svc/domain';
import { type DataSource, type Repository } from 'typeorm';
import { type SecretsCipher } from '../../../crypto/secrets-cipher';
import { WebhookMapper } from '../mappers/webhook.mapper';
import { OutboxWrites } from '../outbox';
import { RecordValues } from '../record-values';
import { WebhookEndpointRecord } from '../records/webhook.records';
import { type WebhookStatements } from './webhook-statements';

/** Webhook endpoints on a SQL database (CONTRACT 20): each change and its audit entry in one transaction, secrets sealed at rest. */
export class SqlWebhookEndpointRepository extends WebhookEndpointRepository {
  private readonly records: Repository<WebhookEndpointRecord>;
  private readonly values: RecordValues<WebhookEndpointRecord>;
  private readonly outbox: OutboxWrites;

  constructor(
    dataSource: DataSource,
    private readonly sql: WebhookStatements,
    /** Seals and opens the endpoints' secrets (encrypted at rest with SECRETS_KEY). */
    private readonly cipher: SecretsCipher,
  ) {
    super();
    this.records = dataSource.getRepository(WebhookEndpointRecord);
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
    const records = await this.records.find({ order: { createdAt: 'ASC', id: 'ASC' } });
    return records.map((record) => WebhookMapper.endpointToDomain(record, this.cipher));
  }

  async find(id: string): Promise<WebhookEndpoint | null> {
    const record = await this.records.findOneBy({ id });
    return record ? WebhookMapper.endpointToDomain(record, this.cipher) : null;
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
