import { Module } from '@nestjs/common';
import { ApiKeyGuard } from '../../http/api-key.guard';
import { AnalyticsController } from './analytics.controller';

@Module({ controllers: [AnalyticsController], providers: [ApiKeyGuard] })
export class AnalyticsModule {}
