import { RecordEventOutput } from '@svc/application';

/** SPEC 4.5: the reduced quota carries only `used` and `remaining` (null when unlimited). */
export interface LogEventResponse {
  readonly logged: true;
  readonly event_id: string;
  readonly quota: { readonly used: number; readonly remaining: number | null };
}

export function logEventResponseOf(output: RecordEventOutput): LogEventResponse {
  return { logged: true, event_id: output.eventId, quota: { used: output.quota.used, remaining: output.quota.remaining } };
}
