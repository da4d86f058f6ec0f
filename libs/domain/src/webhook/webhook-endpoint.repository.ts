import { type AuditEntry } from '../audit/audit-entry';
import { type WebhookEndpoint } from './webhook-endpoint';

/** The operators' webhook endpoints (CONTRACT 20), each change stored with its audit entry in one transaction. */
export abstract class WebhookEndpointRepository {
  abstract create(endpoint: WebhookEndpoint, audit: AuditEntry): Promise<void>;
  /** Oldest first. */
  abstract list(): Promise<WebhookEndpoint[]>;
  abstract find(id: string): Promise<WebhookEndpoint | null>;
  /** Saves url, events, description, enabled and the secrets with the audit entry; false when it is gone. */
  abstract update(endpoint: WebhookEndpoint, audit: AuditEntry): Promise<boolean>;
  /** Deletes it and its deliveries with the audit entry; false when it is gone. */
  abstract delete(id: string, audit: AuditEntry): Promise<boolean>;
}
