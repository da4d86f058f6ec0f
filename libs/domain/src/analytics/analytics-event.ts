import { InvalidRequestError } from '../shared/domain-error';
import { MissingEventTypeError, InvalidEventTypeError } from './analytics.errors';

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
  readonly environment: string;
  /** The billing period (`YYYY-MM`) the event was received in. */
  readonly period: string;
  readonly receivedAt: Date;
}

/**
 * Judges an untrusted event body (CONTRACT 9): `event_type` first (missing,
 * then not one of the three), then each optional field; `null` counts as
 * absent; unknown fields are ignored. Throws the matching domain error.
 */
export function readEventReport(body: Readonly<Record<string, unknown>>): EventReport {
  const eventType = body.event_type;
  if (eventType === undefined || eventType === null || (typeof eventType === 'string' && eventType.trim() === '')) {
    throw new MissingEventTypeError();
  }
  if (typeof eventType !== 'string' || !(EVENT_TYPES as readonly string[]).includes(eventType)) {
    throw new InvalidEventTypeError();
  }
  return {
    eventType: eventType as EventType,
    modelName: optionalString(body, 'model_name', EVENT_LIMITS.modelNameLength),
    inferenceType: optional(body, 'inference_type', (v): v is InferenceType =>
      (INFERENCE_TYPES as readonly unknown[]).includes(v), 'must be batch or streaming'),
    durationMs: optional(body, 'duration_ms', (v): v is number =>
      typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= EVENT_LIMITS.durationMs, 'must be a finite number >= 0'),
    success: optional(body, 'success', (v): v is boolean => typeof v === 'boolean', 'must be true or false'),
    errorMessage: optionalString(body, 'error_message', EVENT_LIMITS.errorMessageLength),
    metadata: optional(body, 'metadata', isSmallObject, `must be a JSON object of at most ${EVENT_LIMITS.metadataBytes} bytes`),
  };
}

function optional<T>(body: Readonly<Record<string, unknown>>, field: string, accept: (v: unknown) => v is T, rule: string): T | null {
  const value = body[field];
  if (value === undefined || value === null) return null;
  if (!accept(value)) throw new InvalidRequestError(`${field} ${rule}`);
  return value;
}

function optionalString(body: Readonly<Record<string, unknown>>, field: string, maxLength: number): string | null {
  return optional(body, field, (v): v is string => typeof v === 'string' && v.length <= maxLength,
    `must be a string of at most ${maxLength} characters`);
}

function isSmallObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return new TextEncoder().encode(JSON.stringify(value)).length <= EVENT_LIMITS.metadataBytes;
}
