import { Clock } from '@svc/domain';

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}
