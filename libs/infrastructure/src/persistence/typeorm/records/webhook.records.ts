import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A webhook endpoint (CONTRACT 20). An HMAC signature needs the secret
 * itself, so its secrets cannot be digests: they are sealed by the
 * SecretsCipher (encrypted at rest with SECRETS_KEY), never logged
 * and never shown after they are made. `events` is a JSON array of event
 * types, as text.
 */
@Entity('webhook_endpoints')
export class WebhookEndpointRecord {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id!: string;

  @Column({ type: 'varchar', length: 2000 })
  url!: string;

  @Column({ type: 'text' })
  events!: string;

  @Column({ type: 'varchar', length: 500, nullable: true })
  description!: string | null;

  @Column({ type: 'varchar', length: 255 })
  secret!: string;

  @Column({ name: 'previous_secret', type: 'varchar', length: 255, nullable: true })
  previousSecret!: string | null;

  @Column({ name: 'previous_secret_expires_at', type: Date, nullable: true })
  previousSecretExpiresAt!: Date | null;

  @Column({ name: 'failing_since', type: Date, nullable: true })
  failingSince!: Date | null;

  @Column({ name: 'disabled_at', type: Date, nullable: true })
  disabledAt!: Date | null;

  @Column({ name: 'disabled_reason', type: 'varchar', length: 200, nullable: true })
  disabledReason!: string | null;

  @Column({ name: 'created_at' })
  createdAt!: Date;

  @Column({ name: 'updated_at' })
  updatedAt!: Date;
}

/**
 * The outbox: an event recorded in the transaction of the change that caused
 * it, fanned out into deliveries by the dispatcher (`fanned_out_at` set once,
 * by one instance). `data` is a JSON object, as text.
 */
@Entity('webhook_events')
export class WebhookEventRecord {
  @PrimaryColumn({ type: 'varchar', length: 120 })
  id!: string;

  @Column({ type: 'varchar', length: 40 })
  type!: string;

  @Column({ name: 'occurred_at' })
  occurredAt!: Date;

  @Column({ type: 'text' })
  data!: string;

  @Column({ name: 'fanned_out_at', type: Date, nullable: true })
  fannedOutAt!: Date | null;
}

/** One message to one endpoint; `id` is its `webhook-id` on every attempt. Claimed for an attempt with a lease. */
@Entity('webhook_deliveries')
export class WebhookDeliveryRecord {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id!: string;

  @Column({ name: 'endpoint_id', type: 'varchar', length: 40 })
  endpointId!: string;

  @Column({ name: 'event_id', type: 'varchar', length: 120, nullable: true })
  eventId!: string | null;

  @Column({ name: 'event_type', type: 'varchar', length: 40 })
  eventType!: string;

  @Column({ type: 'text' })
  body!: string;

  @Column({ type: 'varchar', length: 16 })
  status!: string;

  @Column({ type: 'integer' })
  attempts!: number;

  @Column({ name: 'next_attempt_at', type: Date, nullable: true })
  nextAttemptAt!: Date | null;

  @Column({ name: 'last_attempt_at', type: Date, nullable: true })
  lastAttemptAt!: Date | null;

  @Column({ name: 'last_status_code', type: 'integer', nullable: true })
  lastStatusCode!: number | null;

  @Column({ name: 'last_error', type: 'varchar', length: 500, nullable: true })
  lastError!: string | null;

  @Column({ name: 'lease_owner', type: 'varchar', length: 80, nullable: true })
  leaseOwner!: string | null;

  @Column({ name: 'lease_expires_at', type: Date, nullable: true })
  leaseExpiresAt!: Date | null;

  @Column({ name: 'created_at' })
  createdAt!: Date;
}
