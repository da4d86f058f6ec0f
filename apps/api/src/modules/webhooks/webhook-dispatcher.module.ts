import { Module } from '@nestjs/common';
import { DispatchWebhooks } from '@svc/application';
import { WebhookDispatcher } from './webhook-dispatcher';

/** The webhook dispatcher (CONTRACT 20): delivers the outbox's events, in every instance of the API. */
@Module({ providers: [DispatchWebhooks, WebhookDispatcher] })
export class WebhookDispatcherModule {}
