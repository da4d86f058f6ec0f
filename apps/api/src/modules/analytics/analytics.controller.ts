import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { RecordEvent } from '@svc/application';
import { ApiKey } from '@svc/domain';
import { ApiKeyGuard, CurrentKey, KeySources } from '../../http/api-key.guard';
import { RateLimited } from '../../http/rate-limit.guard';
import { KeyBody } from '../auth/dto/key-body';
import { LogEventResponse, logEventResponseOf } from './dto/log-event.response';

/** SPEC 4.5 / CONTRACT 9: 202 once the event is committed. */
@Controller('v1/analytics')
@UseGuards(ApiKeyGuard)
export class AnalyticsController {
  constructor(private readonly recordEvent: RecordEvent) {}

  @Post('log')
  @HttpCode(202)
  @KeySources('body', 'header')
  @RateLimited('analytics')
  async log(@CurrentKey() key: ApiKey, @Body() body: KeyBody): Promise<LogEventResponse> {
    return logEventResponseOf(await this.recordEvent.execute({ key, body: body ?? {} }));
  }
}
