import { type AuditEntry, type WebhookEndpoint, WebhookEndpointRepository } from '@svc/domain';
import { type DataSource, type Repository } from 'typeorm';
import { type SecretsCipher } from '../../../crypto/secrets-cipher';
import { WebhookMapper } from '../mappers/webhook.mapper';
import { OutboxWrites } from '../outbox';
import { WebhookDeliveryRecord, WebhookEndpointRecord } from '../records/webhook.records';
import { type WebhookStatements } from './webhook-statements';

/** Webhook endpoints on a SQL database (CONTRACT 20): each change and its audit entry in one transaction, secrets sealed at rest. */
export class SqlWebhookEndpointRepository extends WebhookEndpointRepository {
  private readonly records: Repository<WebhookEndpointRecord>;
  private readonly outbox: OutboxWrites;

  constructor(
    dataSource: DataSource,
    private readonly sql: WebhookStatements,
    /** Seals and opens the endpoints' secrets (encrypted at rest with SECRETS_KEY). */
    private readonly cipher: SecretsCipher,
  ) {
    super();
    this.records = dataSource.getRepository(WebhookEndpointRecord);
    this.outbox = new OutboxWrites(dataSource);
  }

  async create(endpoint: WebhookEndpoint, audit: AuditEntry): Promise<void> {
    const record = WebhookMapper.endpointToRecord(endpoint, endpoint.updatedAt, this.cipher);
    await this.sql.audited([audit], async (manager) => {
      await manager.createQueryBuilder().insert().into(WebhookEndpointRecord).values(record).updateEntity(false).execute();
      await this.outbox.audit(manager, [audit]);
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
    const { id, createdAt, disabledAt, ...changed } = record;
    void createdAt;
    return this.sql.audited([audit], async (manager) => {
      const updated = await manager
        .createQueryBuilder()
        .update(WebhookEndpointRecord)
        // an endpoint disabled before keeps the instant it was disabled at
        .set({ ...changed, disabledAt: endpoint.enabled ? null : () => 'COALESCE(disabled_at, :disabledAt)' })
        .where('id = :id', { id, disabledAt })
        .execute();
      if (updated.affected !== 1) return false;
      await this.outbox.audit(manager, [audit]);
      return true;
    });
  }

  async delete(id: string, audit: AuditEntry): Promise<boolean> {
    return this.sql.audited([audit], async (manager) => {
      const deleted = await manager.delete(WebhookEndpointRecord, { id });
      if (deleted.affected !== 1) return false;
      await manager.delete(WebhookDeliveryRecord, { endpointId: id });
      await this.outbox.audit(manager, [audit]);
      return true;
    });
  }
}
