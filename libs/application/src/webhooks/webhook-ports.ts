import { type AttemptOutcome } from '@svc/domain';

/**
 * Where webhooks may go (CONTRACT 20): `https`, to an address that resolves
 * to no loopback, private, link-local or metadata range, unless insecure
 * targets are allowed. `check` refuses (UnsafeWebhookUrlError) what is not.
 */
export abstract class WebhookTargets {
  abstract check(url: string): Promise<void>;
}

/** One signed attempt of a message. */
export interface WebhookRequest {
  readonly url: string;
  /** `webhook-id`: the delivery's, the same on every attempt. */
  readonly id: string;
  /** `webhook-timestamp`: this attempt's. */
  readonly timestamp: Date;
  readonly body: string;
  /** Every secret that signs now (Standard Webhooks: one signature each, space-separated). */
  readonly secrets: readonly string[];
}

/**
 * Sends one attempt, signed as Standard Webhooks specifies, to a safe
 * address only (checked when connecting), following no redirect, waiting
 * at most ATTEMPT_TIMEOUT_MS; never rejects: a failure is an outcome.
 */
export abstract class WebhookTransport {
  abstract send(request: WebhookRequest): Promise<AttemptOutcome>;
}

/**
 * Rung once a transaction of this instance that recorded webhook events has
 * committed, so that its dispatcher wakes at once (other instances find them
 * on their next short poll). A listener is called synchronously and must not throw.
 */
export abstract class OutboxSignal {
  /** Calls `listener` on each ring; answers how to stop. */
  abstract listen(listener: () => void): () => void;
}
