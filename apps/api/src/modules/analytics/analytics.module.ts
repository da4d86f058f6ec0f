import { Module } from '@nestjs/common';
import { RecordEvent, RecordEvents } from '@svc/application';
import { ApiKeyAuthModule } from '../../api-key-auth/api-key-auth.module';
import { AnalyticsController } from './analytics.controller';

/** SPEC 4.5 and CONTRACT 22: usage events, one or a batch, and the quota they consume. */
@Module({ imports: [ApiKeyAuthModule], controllers: [AnalyticsController], providers: [RecordEvent, RecordEvents] })
export class AnalyticsModule {}
