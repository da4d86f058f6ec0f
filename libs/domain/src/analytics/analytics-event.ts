import { EVENT_TYPES, EventType, INFERENCE_TYPES, InferenceType } from './event-types';

export { EVENT_TYPES, EventType, INFERENCE_TYPES, InferenceType };

/** Sane bounds on what an SDK may report (CONTRACT 9). */
export const EVENT_LIMITS = Object.freeze({
  modelNameLength: 200,
  errorMessageLength: 2000,
  metadataBytes: 16 * 1024,
  durationMs: 1e12,
});

/** What the caller reported, checked; everything but the key and its identity. */
export interface EventReport {
  readonly eventType: EventType;
  readonly modelName: string | null;
  readonly inferenceType: InferenceType | null;
  readonly durationMs: number | null;
  readonly success: boolean | null;
  readonly errorMessage: string | null;
  readonly metadata: Readonly<Record<string, unknown>> | null;
}

/** A stored analytics event: it names the key by id, never by the key itself. */
export interface AnalyticsEvent extends EventReport {
  readonly id: string;
  readonly keyId: string;
  /**
   * The license whose monthly counter the event draws on (the key's
   * `licenseId`, CONTRACT 16). Not a column of the event: the stored event
   * keeps the key that spent it, and its license is the key's.
   */
  readonly licenseId: string;
  /** The key's display prefix. Not a column either: a quota notice names the key by id and prefix (CONTRACT 20). */
  readonly keyPrefix: string;
  readonly environment: string;
  /** The billing period (`YYYY-MM`) the event was received in: the one whose quota it draws on, however late it is uploaded. */
  readonly period: string;
  readonly receivedAt: Date;
  /** When the SDK says the event happened (CONTRACT 22); its receipt when it did not say. */
  readonly occurredAt: Date;
  /** Whether it came in a batch (POST /v1/analytics/batch). */
  readonly batched: boolean;
}
