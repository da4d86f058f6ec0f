import { Module } from '@nestjs/common';
import { RecordEvent } from '@svc/application';
import { ApiKeyAuthModule } from '../../api-key-auth/api-key-auth.module';
import { AnalyticsController } from './analytics.controller';

/** SPEC 4.5: usage events, and the quota they consume. */
@Module({ imports: [ApiKeyAuthModule], controllers: [AnalyticsController], providers: [RecordEvent] })
export class AnalyticsModule {}
