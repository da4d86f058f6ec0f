import { type WebhookMessageType } from './webhook-event';

/**
 * When a failed delivery is tried again (CONTRACT 20): after the first
 * attempt fails, 5 s later; then 5 min, 30 min, 2 h, 5 h, 10 h and 10 h. A
 * delivery whose last scheduled attempt fails is `failed`.
 */
export const RETRY_DELAYS_MS: readonly number[] = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

/** Every attempt a delivery gets: the first and each retry. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** How long one attempt may wait for an answer. */
export const ATTEMPT_TIMEOUT_MS = 10_000;

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export function isDeliveryStatus(value: unknown): value is DeliveryStatus {
  return typeof value === 'string' && (DELIVERY_STATUSES as readonly string[]).includes(value);
}

/** When the next attempt is due after `attempts` attempts failed, the last at `at`, on `delays`; null when none is left. */
export function nextAttemptAfterFailure(attempts: number, at: Date, delays: readonly number[] = RETRY_DELAYS_MS): Date | null {
  const delay = delays[attempts - 1];
  return delay === undefined ? null : new Date(at.getTime() + delay);
}

/** One message to one endpoint, attempted until it succeeds or its schedule ends. Its id is the `webhook-id` of every attempt. */
export interface WebhookDelivery {
  readonly id: string;
  readonly endpointId: string;
  readonly eventId: string | null;
  readonly eventType: WebhookMessageType;
  /** The body as sent, byte for byte, on every attempt. */
  readonly body: string;
  readonly status: DeliveryStatus;
  readonly attempts: number;
  readonly nextAttemptAt: Date | null;
  readonly lastAttemptAt: Date | null;
  readonly lastStatusCode: number | null;
  readonly lastError: string | null;
  readonly createdAt: Date;
}

/** What one attempt came to: an answer with its status, or none (the error says why). */
export type AttemptOutcome =
  { readonly ok: true; readonly statusCode: number } | { readonly ok: false; readonly statusCode: number | null; readonly error: string };

/** How long a claim holds a delivery: longer than an attempt may take, so a live claimer is never overtaken; a dead one's is taken over after it. */
export const DELIVERY_LEASE_MS = 30_000;

/**
 * The delivery's timing, bound once from configuration (WEBHOOK_RETRY_DELAYS_MS,
 * WEBHOOK_ATTEMPT_TIMEOUT_MS, WEBHOOK_DELIVERY_LEASE_MS): CONTRACT 20's values
 * unless an operator (or a test) sets others. A lease always outlasts an attempt,
 * so a live claimer is never overtaken.
 */
export class WebhookDeliverySchedule {
  constructor(
    readonly retryDelaysMs: readonly number[] = RETRY_DELAYS_MS,
    readonly attemptTimeoutMs: number = ATTEMPT_TIMEOUT_MS,
    readonly leaseMs: number = DELIVERY_LEASE_MS,
  ) {
    if (retryDelaysMs.length === 0 || !retryDelaysMs.every((d) => Number.isSafeInteger(d) && d > 0)) {
      throw new RangeError('the retry delays are one or more positive whole numbers of milliseconds');
    }
    if (!Number.isSafeInteger(attemptTimeoutMs) || attemptTimeoutMs < 1) throw new RangeError('an attempt waits at least 1 ms');
    if (!Number.isSafeInteger(leaseMs) || leaseMs <= attemptTimeoutMs) throw new RangeError('a delivery lease must outlast an attempt');
  }

  /** Every attempt a delivery gets: the first and each retry. */
  get maxAttempts(): number {
    return this.retryDelaysMs.length + 1;
  }

  /** When the next attempt is due after `attempts` attempts failed, the last at `at`; null when none is left. */
  nextAttemptAfterFailure(attempts: number, at: Date): Date | null {
    return nextAttemptAfterFailure(attempts, at, this.retryDelaysMs);
  }
}

/**
 * How many attempts one instance has under way at once. A slot is taken
 * when a delivery is claimed and given back when its attempt is recorded;
 * the next due delivery is claimed as soon as one frees.
 */
export const DELIVERY_SLOTS = 10;

/**
 * How many of an instance's slots one endpoint may hold at once: a receiver
 * that never answers holds at most this many (each for ATTEMPT_TIMEOUT_MS),
 * and every other endpoint keeps the rest.
 */
export const ENDPOINT_SLOTS = 2;
