import { Module } from '@nestjs/common';
import { DispatchWebhooks, PruneWebhookOutbox } from '@svc/application';
import { WebhookDispatcher } from './webhook-dispatcher';

/** The webhook dispatcher (CONTRACT 20): delivers the outbox's events and prunes what it keeps past WEBHOOK_RETENTION_DAYS, in every instance of the API. */
@Module({ providers: [DispatchWebhooks, PruneWebhookOutbox, WebhookDispatcher] })
export class WebhookDispatcherModule {}
