import { DomainError } from '../shared/domain-error';
import { EVENT_TYPES } from './event-types';

export class MissingEventTypeError extends DomainError {
  readonly code = 'MISSING_EVENT_TYPE' as const;
  constructor() {
    super('Event type is required', `event_type must be one of ${EVENT_TYPES.join(', ')}`);
  }
}

export class InvalidEventTypeError extends DomainError {
  readonly code = 'INVALID_EVENT_TYPE' as const;
  constructor() {
    super('Invalid event type', `event_type must be one of ${EVENT_TYPES.join(', ')}`);
  }
}
