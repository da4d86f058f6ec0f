import { DomainError } from '../shared/domain-error';
import { type RandomSource } from '../shared/id-generator';
import { type WebhookEventType } from './webhook-event';

/** How long a replaced secret keeps signing beside the new one (CONTRACT 20). */
export const SECRET_OVERLAP_MS = 24 * 3600 * 1000;

/** An endpoint failing every delivery for this long is disabled (CONTRACT 20). */
export const DISABLE_FAILING_AFTER_MS = 5 * 24 * 3600 * 1000;

/** A signing secret of an endpoint, and until when it signs (null: until replaced). */
export interface SigningSecret {
  readonly secret: string;
  readonly expiresAt: Date | null;
}

/** A receiver of webhooks (CONTRACT 20). Its secrets sign; they are shown once, when made, and never again. */
export interface WebhookEndpoint {
  readonly id: string;
  readonly url: string;
  readonly events: readonly WebhookEventType[];
  readonly description: string | null;
  readonly enabled: boolean;
  readonly secret: string;
  /** The secret replaced last, still signing until `previousSecretExpiresAt`. */
  readonly previousSecret: string | null;
  readonly previousSecretExpiresAt: Date | null;
  /** The first failure since the last success (null: not failing). */
  readonly failingSince: Date | null;
  /** Why it was disabled by the service (null: enabled, or disabled by an operator). */
  readonly disabledReason: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** The secrets that sign at `at`: the current one, and the replaced one during its overlap. */
export function signingSecretsOf(endpoint: WebhookEndpoint, at: Date): string[] {
  const secrets = [endpoint.secret];
  if (endpoint.previousSecret !== null && endpoint.previousSecretExpiresAt !== null && endpoint.previousSecretExpiresAt > at) {
    secrets.push(endpoint.previousSecret);
  }
  return secrets;
}

/** A Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
export function generateWebhookSecret(random: RandomSource): string {
  const hex = random.hex(32);
  let binary = '';
  for (let i = 0; i < hex.length; i += 2) binary += String.fromCharCode(parseInt(hex.slice(i, i + 2), 16));
  return `whsec_${btoa(binary)}`;
}

/** Whether an endpoint that just failed at `at` has failed every delivery long enough to be disabled. */
export function failingTooLong(failingSince: Date | null, at: Date): boolean {
  return failingSince !== null && at.getTime() - failingSince.getTime() >= DISABLE_FAILING_AFTER_MS;
}

/** What an operator may change of an endpoint; a field absent is left alone. */
export interface WebhookEndpointChange {
  readonly url?: string;
  readonly events?: readonly WebhookEventType[];
  readonly description?: string | null;
  readonly enabled?: boolean;
}

export class WebhookNotFoundError extends DomainError {
  readonly code = 'WEBHOOK_NOT_FOUND' as const;
  constructor() {
    super('Webhook endpoint not found');
  }
}

export class DeliveryNotFoundError extends DomainError {
  readonly code = 'DELIVERY_NOT_FOUND' as const;
  constructor() {
    super('Delivery not found');
  }
}

/** An address the service will not send to (CONTRACT 20): not https, or one that resolves to a private range. */
export class UnsafeWebhookUrlError extends DomainError {
  readonly code = 'INVALID_REQUEST' as const;
  constructor(reason: string) {
    super('Invalid request', `url: ${reason}`);
  }
}
